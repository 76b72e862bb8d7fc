/**
 * Trino's leaf-split admission (docs/design.md §3.1; Trino's `TimeSharingTaskExecutor`
 * `scheduleTaskIfNecessary` / `addNewEntrants` / `pollNextSplitWorker`): leaf splits wait in
 * their task's FIFO; each task is topped up to `guaranteedPerTask` running drivers, then tasks
 * take turns while fewer than `minDrivers` leaf splits run; no task ever runs more than
 * `maxDriversPerTask`, the engine's or the task's own lower one (its guarantee drops to it too),
 * nor more than its split concurrency controller's target when that is on
 * (`initialSplitConcurrency`; engine/core/concurrency/). Intermediate splits bypass admission
 * and, as in Trino, do not count towards `minDrivers`.
 *
 * The turns follow Trino's task list: a task joins it when it is registered (`addTask`: here,
 * when the executor creates the task), the walk goes in list order, and only the task that gave
 * a split moves to the end; a task with nothing waiting keeps its place. Each task carries its
 * place as a key (`rrKey`, larger = later); `rotation` holds only the tasks with waiting leaves,
 * sorted by key, so the walk skips the empty ones without visiting them and gives the same order
 * as Trino's walk over every task.
 */
import type { ExecSplit, ExecTask } from './records.ts';

export interface AdmissionLimits {
  readonly guaranteedPerTask: number;
  readonly minDrivers: number;
  readonly maxDriversPerTask: number;
}

export class Admission {
  /** Tasks with waiting leaves, by `rrKey` (front = next to be served). */
  private rotation: ExecTask[] = [];
  private readonly inRotation = new Set<ExecTask>();
  /** The next place at the end of the task list. */
  private nextKey = 0;
  /** Leaf splits waiting across all tasks. */
  waiting = 0;
  /** Admitted leaf splits not yet ended, across all tasks. */
  running = 0;
  /** Some task in the rotation has run out of waiting leaves since the last compaction. */
  private emptied = false;

  /** A new task joins the end of the task list (Trino's `addTask`). */
  register(task: ExecTask): void {
    task.rrKey = this.nextKey++;
  }

  enqueue(task: ExecTask, split: ExecSplit): void {
    task.addWaiting(split);
    this.waiting++;
    if (!this.inRotation.has(task)) {
      this.inRotation.add(task);
      // Back at the place it kept while it had nothing waiting.
      this.rotation.splice(this.placeOf(task.rrKey), 0, task);
    }
  }

  /** An admitted leaf split of `task` ended (or was cancelled while running). */
  release(task: ExecTask): void {
    task.admittedLeaves--;
    this.running--;
  }

  /** Forgets a task's waiting leaves (its job ended); returns them. */
  forget(task: ExecTask): ExecSplit[] {
    const dropped = task.clearWaiting();
    this.waiting -= dropped.length;
    if (dropped.length > 0) this.emptied = true;
    return dropped;
  }

  /**
   * Admits leaves by the rules above; `start` offers one to the policy. With `focus`, only that
   * task is topped up to its guarantee (what changed is its own count, as in Trino's
   * `scheduleTaskIfNecessary`); without it, every task is (after a knob change).
   */
  admit(limits: AdmissionLimits, start: (split: ExecSplit) => void, focus?: ExecTask): void {
    if (this.waiting === 0) {
      this.compact();
      return;
    }
    if (focus !== undefined) {
      const guaranteed = guaranteeOf(focus, limits);
      while (focus.admittedLeaves < guaranteed && this.take(focus, start)) {
        // topped up to the guarantee
      }
    } else {
      for (const task of this.rotation) {
        const guaranteed = guaranteeOf(task, limits);
        while (task.admittedLeaves < guaranteed && this.take(task, start)) {
          // topped up to the guarantee
        }
      }
    }
    while (this.running < limits.minDrivers && this.waiting > 0) {
      const i = this.rotation.findIndex(
        (t) => t.waitingCount > 0 && t.admittedLeaves < maxOf(t, limits),
      );
      const task = this.rotation[i];
      if (task === undefined) break;
      this.take(task, start);
      this.rotation.splice(i, 1);
      this.rotation.push(task);
      task.rrKey = this.nextKey++;
    }
    this.compact();
  }

  /** Where a task with `key` goes in `rotation` (binary search: keys are unique). */
  private placeOf(key: number): number {
    let lo = 0;
    let hi = this.rotation.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rotation[mid]!.rrKey < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private take(task: ExecTask, start: (split: ExecSplit) => void): boolean {
    const split = task.popWaiting();
    if (split === undefined) return false;
    this.waiting--;
    this.running++;
    task.admittedLeaves++;
    if (task.waitingCount === 0) this.emptied = true;
    start(split);
    return true;
  }

  private compact(): void {
    if (!this.emptied) return;
    this.emptied = false;
    const kept: ExecTask[] = [];
    for (const t of this.rotation) {
      if (t.waitingCount > 0) kept.push(t);
      else this.inRotation.delete(t);
    }
    this.rotation = kept;
  }
}

/**
 * A task's own limit, never above the engine's (the engine's may have been lowered live), nor
 * above its split concurrency controller's target (Trino's `pollNextSplit` refuses a split then).
 */
function maxOf(task: ExecTask, limits: AdmissionLimits): number {
  return Math.min(task.maxDrivers, limits.maxDriversPerTask, task.targetConcurrency);
}

/** As Trino's `scheduleTaskIfNecessary`: the guarantee, lowered to the task's own limit. */
function guaranteeOf(task: ExecTask, limits: AdmissionLimits): number {
  return Math.min(limits.guaranteedPerTask, maxOf(task, limits));
}
