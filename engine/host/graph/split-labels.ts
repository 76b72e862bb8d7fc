/**
 * Which of the executor's splits are a graph run's nodes (engine/runtime/graph/executor-graph.ts),
 * so that the executor's spans of them read as the graph's in a frame: `job` becomes the run's job
 * id, `task` the graph's index in the run, `split` the node index, `cls` the run's name and `node`
 * the node's id (`SpanColumns.node`, shared/protocol.ts). One entry per node attempt, kept for the
 * run (a late client's snapshot labels old spans too): it grows with the graph, as the run's
 * per-node arrays do, and docs/limits.md bounds a graph's size.
 */
import type { SpanColumns } from '../../../shared/protocol.ts';
import { nameInterner, type NodeIdOf } from './span-buffer.ts';

/** Packs (graph, node): node indexes stay below 2^32, graphs well below 2^20. */
const GRAPH_STRIDE = 2 ** 32;

export class SplitLabels {
  private readonly of = new Map<number, number>();

  add(splitId: number, graph: number, node: number): void {
    this.of.set(splitId, graph * GRAPH_STRIDE + node);
  }

  label(columns: SpanColumns, runName: string, jobId: number, nodeId: NodeIdOf): void {
    if (this.of.size === 0) return;
    const intern = nameInterner(columns);
    let node = columns.node;
    for (let i = 0; i < columns.count; i++) {
      const packed = this.of.get(columns.split[i]!);
      if (packed === undefined || columns.job[i] === jobId) continue;
      const graph = Math.floor(packed / GRAPH_STRIDE);
      const index = packed % GRAPH_STRIDE;
      node ??= new Array<number>(columns.count).fill(-1);
      columns.job[i] = jobId;
      columns.task[i] = graph;
      columns.split[i] = index;
      columns.cls[i] = intern(runName);
      node[i] = intern(nodeId(graph, index));
    }
    if (node !== undefined) columns.node = node;
  }
}
