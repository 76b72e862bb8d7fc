/**
 * The splits waiting now — in the ready queue (`queued`) or held by admission (`waiting`) — in
 * dense columns: each one's state, class, base priority and since when (`enqueuedAt`), for a
 * frame's walk over the waits in progress (population-pass.ts). Walking the live splits
 * themselves — a split, its task and its job, three objects in a heap of 100,000 queued runs —
 * took 40–150 ms a pass; the columns are read in order. `SplitBook` keeps it while a console's
 * frames are built (`keepWaiting`): a service with no console served pays nothing per run.
 */
import { SplitState } from './lifecycle.ts';
import type { ExecSplit } from './records.ts';
import type { WaitVisitor } from './executor-options.ts';

/** Whether a split in `state` is one this index holds. */
export function isWaiting(state: SplitState): boolean {
  return state === SplitState.queued || state === SplitState.waiting;
}

export class WaitingIndex {
  /** Each row's split; a split knows its row (`ExecSplit.waitingRow`). */
  private readonly splits: ExecSplit[] = [];
  private state = new Uint8Array(1024);
  private cls = new Int32Array(1024);
  private priority = new Float64Array(1024);
  private since = new Float64Array(1024);

  get size(): number {
    return this.splits.length;
  }

  /** Rows the columns have room for (for memory checks). */
  get capacity(): number {
    return this.state.length;
  }

  /** `split` came to wait, or changed what the index holds of it: a new row, or its row again. */
  put(split: ExecSplit): void {
    let row = split.waitingRow;
    if (row < 0) {
      row = this.splits.length;
      if (row === this.state.length) this.resize(row * 2);
      this.splits.push(split);
      split.waitingRow = row;
    }
    this.write(row, split);
  }

  /** `split` stopped waiting: the last row moves into its place. */
  delete(split: ExecSplit): void {
    const row = split.waitingRow;
    if (row < 0) return;
    split.waitingRow = -1;
    const last = this.splits.pop()!;
    if (last !== split) {
      const from = this.splits.length;
      this.splits[row] = last;
      last.waitingRow = row;
      this.state[row] = this.state[from]!;
      this.cls[row] = this.cls[from]!;
      this.priority[row] = this.priority[from]!;
      this.since[row] = this.since[from]!;
    }
    // Bounded by what waits now, not by the most that ever waited.
    if (this.state.length > 1024 && this.splits.length < this.state.length / 4) {
      this.resize(this.state.length / 2);
    }
  }

  /** Visits each waiting split in `queued` (the ready queue) or `held` (admission) with its time so far. */
  forEach(now: number, queued: WaitVisitor | null, held: WaitVisitor | null): void {
    const { state, cls, priority, since } = this;
    for (let i = 0; i < this.splits.length; i++) {
      const visit = state[i] === SplitState.queued ? queued : held;
      visit?.(cls[i]!, now - since[i]!, priority[i]!);
    }
  }

  /** Lets every split go (the index is no longer kept): each forgets its row. */
  clear(): void {
    for (const s of this.splits) s.waitingRow = -1;
    this.splits.length = 0;
  }

  private write(row: number, split: ExecSplit): void {
    this.state[row] = split.state;
    this.cls[row] = split.job.clsIndex;
    this.priority[row] = split.basePriority;
    this.since[row] = split.enqueuedAt;
  }

  /** New columns of `size` rows (at least `splits.length`), the rows in use copied. */
  private resize(size: number): void {
    const n = this.splits.length;
    const copy = <T extends Uint8Array | Int32Array | Float64Array>(old: T, next: T): T => {
      next.set(old.subarray(0, n));
      return next;
    };
    this.state = copy(this.state, new Uint8Array(size));
    this.cls = copy(this.cls, new Int32Array(size));
    this.priority = copy(this.priority, new Float64Array(size));
    this.since = copy(this.since, new Float64Array(size));
  }
}
