/**
 * The figures every graph run reports (docs/design.md §3.4): with makespan T, total work W, critical
 * path CP and p workers, LB = max(W/p, CP) bounds any schedule from below, and Graham's bound
 * T ≤ W/p + (1 − 1/p)·CP holds for every greedy list schedule without overhead — so a
 * `grahamRatio` above 1 means the executor left workers idle while work was ready.
 */
export interface GraphMetrics {
  readonly workers: number;
  readonly makespanNanos: number;
  readonly workNanos: number;
  readonly criticalPathNanos: number;
  readonly lowerBoundNanos: number;
  /** LB / T: 1 is optimal. */
  readonly efficiency: number;
  /** T / (W/p + (1 − 1/p)·CP): ≤ 1 for a greedy schedule with zero overhead. */
  readonly grahamRatio: number;
  /** W / (p·T). */
  readonly utilization: number;
}

export function graphMetrics(
  workers: number,
  makespanNanos: number,
  workNanos: number,
  criticalPathNanos: number,
): GraphMetrics {
  const p = workers;
  const lowerBoundNanos = Math.max(workNanos / p, criticalPathNanos);
  const graham = workNanos / p + (1 - 1 / p) * criticalPathNanos;
  const ratio = (a: number, b: number) => (b > 0 ? a / b : a > 0 ? Infinity : 1);
  return {
    workers: p,
    makespanNanos,
    workNanos,
    criticalPathNanos,
    lowerBoundNanos,
    efficiency: ratio(lowerBoundNanos, makespanNanos),
    grahamRatio: ratio(makespanNanos, graham),
    utilization: ratio(workNanos, p * makespanNanos),
  };
}
