/**
 * The executor's live records (docs/design.md §4): its splits and tasks by id, how many splits
 * are in each state, and every state change, checked against lifecycle.ts. Also remembers, for a
 * while, the job of each ended user-module split, so a backend's late notice about it names its
 * job.
 */
import { IdTable } from './id-table.ts';
import { SplitState, checkSplitTransition } from './lifecycle.ts';
import type { ExecSplit, ExecTask } from './records.ts';
import { isWaiting, WaitingIndex } from './waiting-index.ts';

/** How many ended user-module splits keep their job known for late notices. */
const ENDED_MODULE_SPLITS = 4096;

export class SplitBook {
  readonly splits = new IdTable<ExecSplit>();
  readonly tasks = new IdTable<ExecTask>();
  /** Live splits per state (`SplitState`), ended ones included as they end. */
  readonly stateCounts = new Int32Array(9);
  /**
   * Recently ended user-module splits and their jobs (`rememberModuleSplit`): a ring, newest at
   * `endedNext - 1`. Not a Map used as a FIFO: deleting its oldest key on every end leaves holes
   * that `keys().next()` walks, which cost 14 % of the main thread on tiny library runs. Lookups
   * (a late notice) are rare and scan the ring.
   */
  private readonly endedSplitIds = new Float64Array(ENDED_MODULE_SPLITS).fill(-1);
  private readonly endedJobIds = new Float64Array(ENDED_MODULE_SPLITS);
  private endedNext = 0;

  /** The waiting splits in columns, while kept (`keepWaiting`). */
  private index: WaitingIndex | null = null;

  /** A new split, in the state it was created in. */
  add(split: ExecSplit): void {
    this.splits.set(split.id, split);
    this.stateCounts[split.state]!++;
    if (this.index !== null && isWaiting(split.state)) this.index.put(split);
  }

  /** `split` moves to state `to`; a move into the ready queue sets its `enqueuedAt` first. */
  move(split: ExecSplit, to: SplitState): void {
    const from = split.state;
    checkSplitTransition(split.id, from, to);
    this.stateCounts[from]!--;
    this.stateCounts[to]!++;
    split.state = to;
    if (this.index === null) return;
    if (isWaiting(to)) this.index.put(split);
    else if (isWaiting(from)) this.index.delete(split);
  }

  /** `split`'s base priority changed. */
  repriced(split: ExecSplit): void {
    if (this.index !== null && isWaiting(split.state)) this.index.put(split);
  }

  /**
   * Keeps the splits in the ready queue or held by admission in columns (waiting-index.ts), from
   * the live splits now on, or (`false`) lets them go. A console keeps them while it builds
   * frames; the rest of the time no move pays for them.
   */
  keepWaiting(keep: boolean): void {
    if (!keep) {
      this.index?.clear();
      this.index = null;
    } else if (this.index === null) {
      this.index = new WaitingIndex();
      for (const s of this.splits.values()) if (isWaiting(s.state)) this.index.put(s);
    }
  }

  /** The waiting splits' columns while kept, else null (walk `splits`). */
  get waiting(): WaitingIndex | null {
    return this.index;
  }

  /** Splits holding a place in the bounded queue: everything not running and not ended. */
  pendingSplits(): number {
    const c = this.stateCounts;
    return (
      (c[SplitState.waiting] ?? 0) +
      (c[SplitState.queued] ?? 0) +
      (c[SplitState.blocked] ?? 0) +
      (c[SplitState.retrying] ?? 0)
    );
  }

  /** Splits on a worker: running, or cancelled while their quantum runs out. */
  busyWorkers(): number {
    return (
      (this.stateCounts[SplitState.running] ?? 0) + (this.stateCounts[SplitState.cancelling] ?? 0)
    );
  }

  /**
   * A split reached a terminal state: it leaves the live table, and a user module's keeps its job
   * known for late notices about it (a stray error after its quantum ended).
   */
  remove(split: ExecSplit): void {
    this.splits.delete(split.id);
    if (typeof split.work.kernel !== 'string') this.rememberModuleSplit(split.id, split.job.id);
  }

  /** The job of an ended user-module split stays known (bounded: the last 4096 to end). */
  rememberModuleSplit(splitId: number, jobId: number): void {
    const at = this.endedNext;
    this.endedSplitIds[at] = splitId;
    this.endedJobIds[at] = jobId;
    this.endedNext = at + 1 === ENDED_MODULE_SPLITS ? 0 : at + 1;
  }

  /** The job of split `splitId`: live, or a user module's that ended recently. */
  jobOf(splitId: number): number | undefined {
    const live = this.splits.get(splitId);
    if (live !== undefined) return live.job.id;
    const at = this.endedSplitIds.indexOf(splitId);
    return at < 0 ? undefined : this.endedJobIds[at];
  }
}
