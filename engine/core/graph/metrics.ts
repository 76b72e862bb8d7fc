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
  /** W / (p·T); 0 when T is 0 (efficiency and the Graham ratio read 1 then: nothing to beat). */
  readonly utilization: number;
  /**
   * Set when W and CP above are measured (real threads): the graph's own figures from its node
   * costs, shown beside them. LB and efficiency always come from one kind of figure, so a run
   * never shows an efficiency above 1 from measuring one and declaring the other.
   */
  readonly declaredWorkNanos?: number;
  readonly declaredCriticalPathNanos?: number;
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
    // As a job run's: no time, no busy time (0/0 read as 100 % busy for a graph of zero costs).
    utilization: makespanNanos > 0 ? workNanos / (p * makespanNanos) : 0,
  };
}

/**
 * The longest path through the graph weighted by each node's measured run time (`nodeNanos`):
 * the critical path the run actually had. Each node runs after its predecessors end, so it never
 * exceeds the makespan measured on the same clock.
 */
export function measuredCriticalPath(
  graph: {
    readonly nodeCount: number;
    readonly topoOrder: Int32Array;
    readonly successorStart: Int32Array;
    readonly successors: Int32Array;
  },
  nodeNanos: Float64Array,
): number {
  const b = new Float64Array(graph.nodeCount);
  let longest = 0;
  for (let k = graph.nodeCount - 1; k >= 0; k--) {
    const v = graph.topoOrder[k]!;
    let tail = 0;
    for (let e = graph.successorStart[v]!; e < graph.successorStart[v + 1]!; e++) {
      const s = b[graph.successors[e]!]!;
      if (s > tail) tail = s;
    }
    b[v] = nodeNanos[v]! + tail;
    if (b[v]! > longest) longest = b[v]!;
  }
  return longest;
}
