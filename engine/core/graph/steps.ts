/**
 * Work done in bounded steps, so a host can build a graph at the size limit without holding its
 * thread for the whole build (docs/limits.md). A `Steps<T>` is a generator that pauses (yields
 * nothing) each time it has done about `unitsPerStep` units of work and returns its result at the
 * end; a unit is one node or one edge handled by one pass. Core stays pure: it never decides when
 * the next step runs — `runSteps` drives one to the end at once (the CLI, the sync API), a live
 * host drives it between frames (engine/host/graph/drive-steps.ts).
 */
export type Steps<T> = Generator<void, T, void>;

/** Drives `steps` to the end without pausing and returns its result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** Counts the units of work of one step; `spend` says when the step is used up. */
export class WorkBudget {
  private left: number;

  /** `unitsPerStep` ≥ 1. */
  constructor(private readonly unitsPerStep: number) {
    this.left = unitsPerStep;
  }

  /** Counts `units` done; true when the step's budget is spent (the caller then yields). */
  spend(units = 1): boolean {
    this.left -= units;
    if (this.left > 0) return false;
    this.left = this.unitsPerStep;
    return true;
  }
}

/**
 * A step larger than any graph's build (2^20 nodes and 2^22 edges make under 10^8 units), for the
 * one-piece build of `runSteps` callers. A small integer rather than `Infinity`, so the counter
 * stays an integer in the hot loops (with `Infinity` the one-piece build measured slower).
 */
export const UNBOUNDED = 2 ** 30 - 1;
