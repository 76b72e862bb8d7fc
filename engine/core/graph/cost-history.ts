/**
 * Node costs from measured history (docs/design.md §3.4: "costs come from the node spec or from
 * measured history"): an exponentially weighted average of each node's measured running time,
 * keyed by node id, bounded (the oldest key is evicted first). `withCosts` re-ranks a compiled
 * graph with such estimates so `sjf`, `ljf` and `critical-path` order by what nodes really take.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { CompiledGraph } from './compile.ts';

export class CostHistory {
  private readonly estimates = new Map<string, number>();

  constructor(
    /** Weight of the newest measurement, in (0, 1]. */
    readonly alpha = 0.5,
    readonly capacity = 1_000_000,
  ) {
    if (!(alpha > 0 && alpha <= 1))
      throw new SchedLabError('INVALID_ARGUMENT', 'alpha must be in (0, 1]', 'alpha');
    if (!(Number.isInteger(capacity) && capacity >= 1)) {
      throw new SchedLabError('INVALID_ARGUMENT', 'capacity must be an integer >= 1', 'capacity');
    }
  }

  get size(): number {
    return this.estimates.size;
  }

  record(nodeId: string, nanos: number): void {
    const old = this.estimates.get(nodeId);
    const next = old === undefined ? nanos : old + this.alpha * (nanos - old);
    this.estimates.delete(nodeId); // re-insert: Map order is recency order
    this.estimates.set(nodeId, next);
    if (this.estimates.size > this.capacity) {
      const oldest = this.estimates.keys().next().value;
      if (oldest !== undefined) this.estimates.delete(oldest);
    }
  }

  estimate(nodeId: string): number | undefined {
    return this.estimates.get(nodeId);
  }
}

/**
 * The graph with each node's cost replaced by its history estimate where there is one (spec cost
 * otherwise); b-levels, work and critical path recomputed. Structure arrays are shared.
 */
export function withCosts(graph: CompiledGraph, history: CostHistory): CompiledGraph {
  const n = graph.nodeCount;
  const costNanos = new Float64Array(n);
  for (let v = 0; v < n; v++)
    costNanos[v] = history.estimate(graph.nodeId(v)) ?? graph.costNanos[v]!;
  const { successorStart, successors, topoOrder } = graph;
  const bLevel = new Float64Array(n);
  let workNanos = 0;
  let criticalPathNanos = 0;
  for (let i = n - 1; i >= 0; i--) {
    const v = topoOrder[i]!;
    let best = 0;
    for (let k = successorStart[v]!; k < successorStart[v + 1]!; k++)
      best = Math.max(best, bLevel[successors[k]!]!);
    bLevel[v] = costNanos[v]! + best;
    workNanos += costNanos[v]!;
    criticalPathNanos = Math.max(criticalPathNanos, bLevel[v]!);
  }
  return { ...graph, costNanos, bLevel, workNanos, criticalPathNanos, nodeId: graph.nodeId };
}
