/**
 * Graph edges as `[fromSplitId, toSplitId]` pairs for the trace export's flow events
 * (docs/design.md §6), a node's id being `splitIdBase + node` (the numbering the report's trace
 * gives graph spans, engine/host/report/run-graph.ts).
 * Bounded: at most `limit` pairs, in edge order, so a million-edge graph cannot flood a trace.
 */
import type { CompiledGraph } from '../../core/graph/compile.ts';

export function graphSplitEdges(
  graph: CompiledGraph,
  splitIdBase = 0,
  limit = 65_536,
): [from: number, to: number][] {
  const out: [number, number][] = [];
  for (let v = 0; v < graph.nodeCount && out.length < limit; v++) {
    for (
      let k = graph.successorStart[v]!;
      k < graph.successorStart[v + 1]! && out.length < limit;
      k++
    ) {
      out.push([splitIdBase + v, splitIdBase + graph.successors[k]!]);
    }
  }
  return out;
}
