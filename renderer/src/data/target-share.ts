/**
 * What the multilevel queue promises (docs/design.md §3.1): in steady state each busy level gets m
 * times the scheduled time of the next busy one, so the target share of level L is proportional
 * to m^-L among the levels that have work. Idle levels get no share.
 */
export function targetShares(multiplier: number, busy: readonly boolean[]): number[] {
  const weights = busy.map((b, level) => (b ? Math.pow(multiplier, -level) : 0));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (total === 0 ? 0 : w / total));
}

/** Actual shares from scheduled-time deltas over a window; all zero when nothing ran. */
export function actualShares(deltas: readonly number[]): number[] {
  const total = deltas.reduce((a, b) => a + Math.max(0, b), 0);
  return deltas.map((d) => (total === 0 ? 0 : Math.max(0, d) / total));
}
