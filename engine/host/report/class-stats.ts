/**
 * Per-class outcome counts, latency (submit → end of succeeded jobs), wait (each wait of a split
 * in the ready queue: the first one, from its creation or, for a leaf split, its admission, and
 * every one after a quantum, a wake-up or a retry; Trino's split wait time) and queued time (a
 * leaf split's time in its task's admission FIFO, creation → admission; Trino's
 * `splitQueuedTime`) summaries — waits and queued times in progress at the end count up to then
 * (collector.ts) — and scheduled time (from spans, so time of unfinished jobs counts too).
 */
import type { Percentiles } from './summary-stats.ts';
import { Summary } from './summary-stats.ts';

export interface ClassReport {
  jobs: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  rejected: number;
  /** Jobs still running when the run stopped (duration reached). */
  unfinished: number;
  latencyMs: Percentiles;
  /**
   * Each wait of a split in the ready queue (see the header), not a split's total. Absent where
   * nothing measured it: a graph run's graphs (their nodes wait in the graph's own ready queue).
   */
  waitMs?: Percentiles;
  /**
   * Each leaf split's time in admission before it entered the ready queue (Trino's queued time);
   * absent for a class without leaf splits.
   */
  queuedMs?: Percentiles;
  scheduledMs: number;
  /**
   * Longest wait of a split back in the queue after running (yielded, woken or retried) for its
   * next quantum: queue wait only, from when it was ready again (the executor's figure).
   */
  maxRequeueWaitMs: number;
  basePriority: number | null;
  /**
   * Trino's split concurrency controller (`initialSplitConcurrency` set): over the class's tasks,
   * each one's target when it ended (or at the end of the run, if live). Absent while it is off.
   */
  targetConcurrency?: { tasks: number; min: number; mean: number; max: number };
}

export class ClassStats {
  succeeded = 0;
  failed = 0;
  cancelled = 0;
  rejected = 0;
  scheduledNanos = 0;
  maxRequeueWaitNanos = 0;
  basePriority: number | null = null;
  readonly latency = new Summary();
  /** Every wait of the class's splits in the ready queue (ns), recorded by the collector. */
  readonly wait = new Summary();
  /** Every queued time of the class's leaf splits (ns), recorded by the collector. */
  readonly queued = new Summary();

  onJobEnd(state: string, latencyNanos: number, basePriority: number): void {
    this.basePriority ??= basePriority;
    if (state === 'succeeded') {
      this.succeeded++;
      this.latency.record(latencyNanos);
    } else if (state === 'failed') this.failed++;
    else if (state === 'cancelled') this.cancelled++;
    else if (state === 'rejected') this.rejected++;
  }

  get ended(): number {
    return this.succeeded + this.failed + this.cancelled + this.rejected;
  }

  /** Times in workload ms: backend time divided by `scale` (threads `timeScale`). */
  toReport(submitted: number, scale = 1): ClassReport {
    const jobs = Math.max(submitted, this.ended);
    const queued = this.queued.count > 0 ? { queuedMs: this.queued.toMs(scale) } : {};
    // No split of the class waited (none was dispatched): no wait, as no latency — not 0.
    const wait = this.wait.count > 0 ? { waitMs: this.wait.toMs(scale) } : {};
    return {
      jobs,
      succeeded: this.succeeded,
      failed: this.failed,
      cancelled: this.cancelled,
      rejected: this.rejected,
      unfinished: jobs - this.ended,
      latencyMs: this.latency.toMs(scale),
      ...wait,
      ...queued,
      scheduledMs: Math.round(this.scheduledNanos / scale / 1000) / 1000,
      maxRequeueWaitMs: Math.round(this.maxRequeueWaitNanos / scale / 1000) / 1000,
      basePriority: this.basePriority,
    };
  }
}
