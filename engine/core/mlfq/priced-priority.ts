/**
 * What the MLFQ hands its fairness groups — a Priority stamped with the queue that priced it —
 * and the rounding its level targets use.
 */
import type { FairnessGroup, Priority } from '../ready-queue.ts';

let queueStamps = 0;

/** A fresh stamp for a new queue. */
export function nextQueueStamp(): number {
  return ++queueStamps;
}

/**
 * `Math.round(t / m)` for t ≥ 0, exactly, by a multiplication with `inverse` = 1 / m: divisions
 * chained over the levels were a tenth of a take. The product can differ from the quotient by a
 * few ulps, which changes the rounding only when the fraction is that close to one half; there
 * the division decides.
 */
export function roundedQuotient(t: number, m: number, inverse: number): number {
  const q = t * inverse;
  const fraction = q - Math.floor(q);
  if (Math.abs(fraction - 0.5) <= q * 1e-15 + 1e-12) return Math.round(t / m);
  return Math.round(q);
}

/**
 * A Priority this queue gave a group, stamped with the queue and the group: a group whose current
 * Priority is not stamped by this queue was priced elsewhere (another policy, another queue) and
 * is priced afresh when moved here. A stamp instead of a `WeakMap` group → Priority: that map's
 * update on every charge was a tenth of a simulated quantum's cost.
 */
export class PricedPriority implements Priority {
  // Private fields: not properties, so a PricedPriority still compares equal to `{ level,
  // levelPriority }` and serializes as one.
  readonly #stamp: number;
  readonly #group: FairnessGroup;

  constructor(
    readonly level: number,
    readonly levelPriority: number,
    stamp: number,
    group: FairnessGroup,
  ) {
    this.#stamp = stamp;
    this.#group = group;
  }

  static pricedBy(priority: Priority, stamp: number, group: FairnessGroup): boolean {
    return (
      priority instanceof PricedPriority && priority.#stamp === stamp && priority.#group === group
    );
  }
}
