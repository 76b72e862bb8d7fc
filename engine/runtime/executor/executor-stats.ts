/**
 * Trino's executor statistics that the executor keeps itself (docs/metrics.md, "Executor
 * statistics"; Trino's `TimeSharingTaskExecutor` getters): running and completed tasks per level,
 * and the time-weighted distribution of leaf splits admitted (`leafSplitsSize`). A task's level is
 * its scheduled time's level by the configured thresholds (`computeLevel`), whatever the policy.
 * Memory is fixed: counts per level and three running sums.
 */
import { LEVEL_COUNT } from '../../../shared/config.ts';
import type { ExecTask } from './records.ts';

export class ExecutorStats {
  /** Live tasks per level now (Trino's `runningTasksLevelN`). */
  readonly running = new Array<number>(LEVEL_COUNT).fill(0);
  /** Ended tasks per level of their scheduled time at the end (`completedTasksLevelN`). */
  readonly completed = new Array<number>(LEVEL_COUNT).fill(0);
  private thresholds: readonly number[];
  /** Leaf splits admitted now, the most ever, and Σ value × time since `origin`. */
  private leafNow = 0;
  private leafMax = 0;
  private leafArea = 0;
  private leafSince: number;
  private readonly origin: number;

  constructor(thresholdsNanos: readonly number[], now: number) {
    this.thresholds = thresholdsNanos;
    this.origin = now;
    this.leafSince = now;
  }

  levelOf(scheduledNanos: number): number {
    const t = this.thresholds;
    for (let level = t.length - 1; level > 0; level--)
      if (scheduledNanos >= t[level]!) return level;
    return 0;
  }

  taskStarted(task: ExecTask): void {
    task.statLevel = this.levelOf(task.scheduledNanos);
    this.running[task.statLevel]!++;
  }

  /** After a quantum charged the task: it may have moved up a level. */
  taskCharged(task: ExecTask): void {
    // A quantum that ran on after its task ended (its job was cancelled) moves no live task: it
    // drove the running count below zero, one a cancel.
    if (task.ended) return;
    const level = this.levelOf(task.scheduledNanos);
    if (level === task.statLevel) return;
    this.running[task.statLevel]!--;
    this.running[level]!++;
    task.statLevel = level;
  }

  taskEnded(task: ExecTask): void {
    this.running[task.statLevel]!--;
    this.completed[this.levelOf(task.scheduledNanos)]!++;
  }

  /** Thresholds changed live: live tasks are counted at their levels by the new ones. */
  rethreshold(thresholdsNanos: readonly number[], live: Iterable<ExecTask>): void {
    this.thresholds = thresholdsNanos;
    this.running.fill(0);
    for (const t of live) this.taskStarted(t);
  }

  /** The number of admitted leaf splits changed to `count` at `now` (Trino records each change). */
  /** Leaf splits admitted now (as last told to `leafSplits`). */
  get leafCount(): number {
    return this.leafNow;
  }

  leafSplits(count: number, now: number): void {
    if (count === this.leafNow) return;
    this.leafArea += this.leafNow * Math.max(0, now - this.leafSince);
    this.leafSince = now;
    this.leafNow = count;
    if (count > this.leafMax) this.leafMax = count;
  }

  /** Leaf splits admitted: now, the most at once, and the time-weighted mean since the start. */
  leafSplitsSize(now: number): { now: number; max: number; mean: number } {
    const span = now - this.origin;
    const area = this.leafArea + this.leafNow * Math.max(0, now - this.leafSince);
    const mean = span > 0 ? Math.round((area / span) * 1000) / 1000 : this.leafNow;
    return { now: this.leafNow, max: this.leafMax, mean };
  }
}
