/**
 * The executor as a headless run measures it: every wait of a split for a worker is recorded the
 * moment it ends, so a report taken while splits are still running is true. A wait runs from when
 * the split became ready — created (a leaf split's time in its task's admission FIFO included),
 * back in the queue after a quantum, woken from blocked, or its retry backoff over — to its
 * dispatch; the executor reports each one through `onDispatchWait`.
 *
 * That is once per quantum, so the summaries live in an array by the span ring's class index: no
 * Map lookup per quantum. Waits still in progress when the run stops are recorded up to then by
 * `recordWaitsInProgress` (a split queued for minutes and never run must show).
 */
import type { Backend } from '../../runtime/backend.ts';
import { Executor, type ExecutorOptions } from '../../runtime/executor/executor.ts';
import { Summary } from './summary-stats.ts';

export class WaitRecordingExecutor extends Executor {
  /** Waits (ns) by the span ring's class index. */
  private readonly waits: Summary[] = [];

  constructor(backend: Backend, config: unknown, options: ExecutorOptions = {}) {
    super(backend, config, options);
    this.onDispatchWait(this.recordWait);
  }

  /** Records the wait so far of every split still waiting to run (call once, at the end). */
  recordWaitsInProgress(): void {
    this.forEachWaitInProgress(this.recordWait);
  }

  /** Each class's wait summary, by name. */
  waitSummaries(): { cls: string; summary: Summary }[] {
    return this.waits.map((summary, i) => ({ cls: this.spans.className(i), summary }));
  }

  private readonly recordWait = (cls: number, waitNanos: number): void => {
    const waits = this.waits;
    while (waits.length <= cls) waits.push(new Summary());
    waits[cls]!.record(waitNanos);
  };
}
