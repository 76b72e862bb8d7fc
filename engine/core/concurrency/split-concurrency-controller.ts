/**
 * Trino's split concurrency controller (docs/design.md §9; Trino's `SplitConcurrencyController`,
 * one per task handle): how many leaf splits a task may run at once. The target starts at the
 * task's initial concurrency and moves by one at a time, steered by the task's output-buffer
 * utilisation against a fixed target of 0.5:
 *
 * - after every quantum of the task (`update`, Trino's `addScheduledNanos`) the quantum's time is
 *   added to a counter; once the counter reaches the adjustment interval, an under-used buffer
 *   with the task already running its target raises the target (more splits would fill it);
 * - when a split of the task finishes (`splitFinished`, Trino's `splitComplete`), if the counter
 *   has reached the interval or the split's own run time, an over-used buffer lowers the target
 *   (never below 1) and an under-used one raises it, as above. Quick splits thus adjust quickly.
 *
 * Every adjustment restarts the counter. Pure: times are passed in (ns).
 */
import { SchedLabError } from '../../../shared/errors.ts';

/** The buffer utilisation the controller steers to (Trino's `TARGET_UTILIZATION`). */
export const TARGET_UTILIZATION = 0.5;

export class SplitConcurrencyController {
  private target: number;
  /** Quantum time of the task since the last adjustment. */
  private sinceAdjustNanos = 0;

  constructor(
    initialConcurrency: number,
    private readonly adjustIntervalNanos: number,
  ) {
    if (!(Number.isInteger(initialConcurrency) && initialConcurrency > 0)) {
      throw invalid(
        'initialSplitConcurrency',
        `must be an integer >= 1 (got ${initialConcurrency})`,
      );
    }
    if (!(adjustIntervalNanos >= 0)) {
      throw invalid('splitConcurrencyAdjustMs', `must be >= 0 (got ${adjustIntervalNanos} ns)`);
    }
    this.target = initialConcurrency;
  }

  /** Leaf splits the task may run at once now (always >= 1). */
  get targetConcurrency(): number {
    return this.target;
  }

  /** A quantum of `nanos` of the task ended; `running` = its running leaf splits. */
  update(nanos: number, utilization: number, running: number): void {
    check(nanos, utilization, running);
    this.sinceAdjustNanos += nanos;
    if (this.sinceAdjustNanos < this.adjustIntervalNanos) return;
    if (utilization < TARGET_UTILIZATION && running >= this.target) this.adjust(+1);
  }

  /** A split of the task that ran `splitNanos` in all finished; `running` counts it still. */
  splitFinished(splitNanos: number, utilization: number, running: number): void {
    check(splitNanos, utilization, running);
    const due =
      this.sinceAdjustNanos >= this.adjustIntervalNanos || this.sinceAdjustNanos >= splitNanos;
    if (!due) return;
    if (utilization > TARGET_UTILIZATION && this.target > 1) this.adjust(-1);
    else if (utilization < TARGET_UTILIZATION && running >= this.target) this.adjust(+1);
  }

  private adjust(by: 1 | -1): void {
    this.target += by;
    this.sinceAdjustNanos = 0;
  }
}

function invalid(field: string, requirement: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `${field} ${requirement}`, field);
}

function check(nanos: number, utilization: number, running: number): void {
  if (!(nanos >= 0)) throw invalid('nanos', `must be >= 0 (got ${nanos})`);
  if (!(Number.isFinite(utilization) && utilization >= 0)) {
    throw invalid('utilization', `must be a finite number >= 0 (got ${utilization})`);
  }
  if (!(running >= 0)) throw invalid('running', `must be >= 0 (got ${running})`);
}
