/**
 * Trino's leaf-split admission (docs/design.md §3.1; Trino's `TimeSharingTaskExecutor`
 * `scheduleTaskIfNecessary` / `addNewEntrants` / `pollNextSplitWorker`): leaf splits wait in
 * their task's FIFO; each task is topped up to `guaranteedPerTask` running drivers, then tasks
 * take turns — the task that just got a split moves to the back — while fewer than `minDrivers`
 * leaf splits run; no task ever runs more than `maxDriversPerTask`. Intermediate splits bypass
 * admission and, as in Trino, do not count towards `minDrivers`.
 */
import type { ExecSplit, ExecTask } from './records.ts';

export interface AdmissionLimits {
  readonly guaranteedPerTask: number;
  readonly minDrivers: number;
  readonly maxDriversPerTask: number;
}

export class Admission {
  /** Tasks with waiting leaves, in round-robin order (front = next to be served). */
  private rotation: ExecTask[] = [];
  private readonly inRotation = new Set<ExecTask>();
  /** Leaf splits waiting across all tasks. */
  waiting = 0;
  /** Admitted leaf splits not yet ended, across all tasks. */
  running = 0;
  /** Some task in the rotation has run out of waiting leaves since the last compaction. */
  private emptied = false;

  enqueue(task: ExecTask, split: ExecSplit): void {
    task.waiting.push(split);
    this.waiting++;
    if (!this.inRotation.has(task)) {
      this.inRotation.add(task);
      this.rotation.push(task);
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
    const guaranteed = Math.min(limits.guaranteedPerTask, limits.maxDriversPerTask);
    if (focus !== undefined) {
      while (focus.admittedLeaves < guaranteed && this.take(focus, start)) {
        // topped up to the guarantee
      }
    } else {
      for (const task of this.rotation) {
        while (task.admittedLeaves < guaranteed && this.take(task, start)) {
          // topped up to the guarantee
        }
      }
    }
    while (this.running < limits.minDrivers && this.waiting > 0) {
      const i = this.rotation.findIndex(
        (t) => t.waitingCount > 0 && t.admittedLeaves < limits.maxDriversPerTask,
      );
      const task = this.rotation[i];
      if (task === undefined) break;
      this.take(task, start);
      this.rotation.splice(i, 1);
      this.rotation.push(task);
    }
    this.compact();
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
