/**
 * The form every graph takes before compilation: nodes are indices 0..n-1, edges are two parallel
 * typed arrays. Generators build it directly (a million-node graph never becomes a million
 * objects); an explicit document is mapped to it by `indexExplicitGraph`.
 */
import type { ExplicitGraph, GraphKernel } from '../../../shared/graph.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { fieldPath } from '../../../shared/schema-error.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from './steps.ts';

export interface IndexedGraph {
  readonly nodeCount: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** Node cost in integer nanoseconds (documents speak ms). */
  readonly costNanos: Float64Array;
  readonly retries: Uint8Array;
  /** Per-node fault injection (chance an attempt fails); `null` when no node has any. */
  readonly failProbability: Float64Array | null;
  /** Kernel table; `null` means "the executor's default kernel". */
  readonly kernels: readonly (GraphKernel | null)[];
  readonly kernelOf: Uint16Array;
  /** Node ids; `null` means generated names `n0`, `n1`, … */
  readonly ids: readonly string[] | null;
}

/** Errors name the field relative to the graph document; a host prefixes where it sits. */
export function emptyGraph(): SchedLabError {
  return new SchedLabError(
    'INVALID_GRAPH',
    'nodes is empty: a graph needs at least one node',
    'nodes',
  );
}

export const msToNanos = (ms: number): number => Math.round(ms * 1e6);

/** Maps string ids to indices; rejects duplicate ids and edges naming unknown nodes. */
export function indexExplicitGraph(doc: Pick<ExplicitGraph, 'nodes' | 'edges'>): IndexedGraph {
  return runSteps(indexExplicitGraphSteps(doc, new WorkBudget(UNBOUNDED)));
}

/** `indexExplicitGraph` pausing after each `budget` of work (a unit: one node or one edge). */
export function* indexExplicitGraphSteps(
  doc: Pick<ExplicitGraph, 'nodes' | 'edges'>,
  budget: WorkBudget,
): Steps<IndexedGraph> {
  const n = doc.nodes.length;
  if (n === 0) throw emptyGraph();
  const index = new Map<string, number>();
  const costNanos = new Float64Array(n);
  const retries = new Uint8Array(n);
  const failProbability = new Float64Array(n);
  const kernelOf = new Uint16Array(n);
  const kernels: (GraphKernel | null)[] = [null];
  const kernelIndex = new Map<string, number>();
  const ids: string[] = [];
  for (const [i, node] of doc.nodes.entries()) {
    if (index.has(node.id)) {
      const field = fieldPath(['nodes', i, 'id']);
      throw new SchedLabError('DUPLICATE_ID', `${field} duplicates node id "${node.id}"`, field);
    }
    index.set(node.id, i);
    ids.push(node.id);
    costNanos[i] = msToNanos(node.cost ?? 0);
    retries[i] = node.retries ?? 0;
    failProbability[i] = node.failProbability ?? 0;
    if (node.kernel !== undefined) {
      const key = JSON.stringify(node.kernel);
      let k = kernelIndex.get(key);
      if (k === undefined) {
        k = kernels.length;
        kernels.push(node.kernel);
        kernelIndex.set(key, k);
      }
      kernelOf[i] = k;
    }
    if (budget.spend()) yield;
  }
  const m = doc.edges.length;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  for (const [e, edge] of doc.edges.entries()) {
    const a = index.get(edge.from);
    const b = index.get(edge.to);
    if (a === undefined || b === undefined) {
      const field = fieldPath(['edges', e, a === undefined ? 'from' : 'to']);
      const id = a === undefined ? edge.from : edge.to;
      throw new SchedLabError('INVALID_GRAPH', `${field} names no node "${id}"`, field);
    }
    from[e] = a;
    to[e] = b;
    if (budget.spend()) yield;
  }
  return {
    nodeCount: n,
    from,
    to,
    costNanos,
    retries,
    failProbability: failProbability.some((p) => p > 0) ? failProbability : null,
    kernels,
    kernelOf,
    ids,
  };
}
