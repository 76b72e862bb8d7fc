/**
 * Aging against starvation (docs/design.md §3.2), a pure function of the time passed in:
 *
 *   effective = base − min(agingCap, floor(max(0, wait − agingAfter) / agingStep)),  never < 0
 *
 * so a task that has waited exactly `agingAfter` has no boost yet, one step later it is one
 * priority more urgent, and it never climbs more than `agingCap` above its base.
 */

export interface AgingKnobs {
  /** Whether aging applies at all; off, effective priority is the base priority. */
  readonly aging: boolean;
  readonly agingAfterNanos: number;
  readonly agingStepNanos: number;
  readonly agingCap: number;
}

/** How many priorities a task that has waited `waitNanos` is boosted by. */
export function agingBoost(waitNanos: number, knobs: AgingKnobs): number {
  if (!knobs.aging) return 0;
  const excess = waitNanos - knobs.agingAfterNanos;
  if (excess <= 0) return 0;
  const steps = Math.floor(excess / knobs.agingStepNanos);
  return steps < knobs.agingCap ? steps : knobs.agingCap;
}

/** Effective priority at `now` of a task with `base` priority waiting since `readySince`. */
export function effectivePriority(
  base: number,
  readySince: number,
  now: number,
  knobs: AgingKnobs,
): number {
  const aged = base - agingBoost(now - readySince, knobs);
  return aged > 0 ? aged : 0;
}
