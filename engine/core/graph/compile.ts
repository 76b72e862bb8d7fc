/**
 * Graph compilation (docs/design.md §3.4): validates an `IndexedGraph` — not empty, endpoints in
 * range, acyclic (the error names the nodes of one cycle) — and computes, in typed arrays, what
 * every executor needs: in-degrees, successors in CSR form, a topological order, b-levels
 * (cost + max b-level of the successors = the critical-path rank), total work and critical path.
 * O(nodes + edges); a 100k-node graph compiles in milliseconds. `compileDocumentSteps` does the
 * same work in bounded steps (steps.ts) for a live host; the result is the same to the byte.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { GraphDocument, GraphKernel } from '../../../shared/graph.ts';
import { generateGraphSteps } from './generators.ts';
import { emptyGraph, indexExplicitGraphSteps, type IndexedGraph } from './indexed-graph.ts';
import { fieldPath } from '../../../shared/schema-error.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from './steps.ts';

export interface CompiledGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly costNanos: Float64Array;
  readonly retries: Uint8Array;
  readonly failProbability: Float64Array | null;
  readonly kernels: readonly (GraphKernel | null)[];
  readonly kernelOf: Uint16Array;
  readonly inDegree: Int32Array;
  /** Successors of v are `successors[successorStart[v] .. successorStart[v+1])`. */
  readonly successorStart: Int32Array;
  readonly successors: Int32Array;
  readonly topoOrder: Int32Array;
  /** cost + max b-level of the successors (ns). */
  readonly bLevel: Float64Array;
  readonly workNanos: number;
  readonly criticalPathNanos: number;
  nodeId(index: number): string;
}

/** Parses nothing: takes an already validated document (see `parseGraphDocument`). */
export function compileDocument(doc: GraphDocument): CompiledGraph {
  return runSteps(compileDocumentSteps(doc, UNBOUNDED));
}

/**
 * `compileDocument` (generation or indexing included) pausing after about `unitsPerStep` units
 * of work (a unit: one node or one edge handled by one pass).
 */
export function* compileDocumentSteps(
  doc: GraphDocument,
  unitsPerStep: number,
): Steps<CompiledGraph> {
  const budget = new WorkBudget(unitsPerStep);
  const graph =
    'generator' in doc
      ? yield* generateGraphSteps(doc, budget)
      : yield* indexExplicitGraphSteps(doc, budget);
  return yield* compileGraphSteps(graph, budget);
}

export function compileGraph(graph: IndexedGraph): CompiledGraph {
  return runSteps(compileGraphSteps(graph, new WorkBudget(UNBOUNDED)));
}

function* compileGraphSteps(graph: IndexedGraph, budget: WorkBudget): Steps<CompiledGraph> {
  const n = graph.nodeCount;
  if (n === 0) throw emptyGraph();
  const { from, to } = graph;
  const m = from.length;
  const ids = graph.ids;
  const nodeId = ids === null ? (i: number) => `n${i}` : (i: number) => ids[i] ?? `n${i}`;

  const inDegree = new Int32Array(n);
  const successorStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const a = from[e]!;
    const b = to[e]!;
    if (a < 0 || a >= n || b < 0 || b >= n) {
      const field = fieldPath(['edges', e]);
      throw new SchedLabError('INVALID_GRAPH', `${field} has an endpoint out of range`, field);
    }
    successorStart[a + 1]!++;
    inDegree[b]!++;
    if (budget.spend()) yield;
  }
  // Copies are made inside the bounded loops, not by `slice()`: touching every page of a large
  // array at once takes tens of ms on a loaded machine.
  const fill = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    fill[v] = successorStart[v]!;
    successorStart[v + 1]! += successorStart[v]!;
    if (budget.spend()) yield;
  }
  const successors = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    successors[fill[from[e]!]!++] = to[e]!;
    if (budget.spend()) yield;
  }

  // Kahn's algorithm; the order array doubles as the queue.
  const remaining = new Int32Array(n);
  const topoOrder = new Int32Array(n);
  let tail = 0;
  for (let v = 0; v < n; v++) {
    remaining[v] = inDegree[v]!;
    if (remaining[v] === 0) topoOrder[tail++] = v;
    if (budget.spend()) yield;
  }
  for (let head = 0; head < tail; head++) {
    const v = topoOrder[head]!;
    const end = successorStart[v + 1]!;
    for (let k = successorStart[v]!; k < end; k++) {
      const s = successors[k]!;
      if (--remaining[s]! === 0) topoOrder[tail++] = s;
    }
    if (budget.spend(1 + end - successorStart[v]!)) yield;
  }
  if (tail < n) {
    const cycle = yield* findCycle(n, from, to, remaining, budget);
    const text = cycleText(cycle, nodeId);
    throw new SchedLabError('INVALID_GRAPH', `edges form a cycle: ${text}`, 'edges');
  }

  const cost = graph.costNanos;
  const bLevel = new Float64Array(n);
  let criticalPathNanos = 0;
  let workNanos = 0;
  for (let i = n - 1; i >= 0; i--) {
    const v = topoOrder[i]!;
    let best = 0;
    const end = successorStart[v + 1]!;
    for (let k = successorStart[v]!; k < end; k++) best = Math.max(best, bLevel[successors[k]!]!);
    const b = cost[v]! + best;
    bLevel[v] = b;
    workNanos += cost[v]!;
    if (b > criticalPathNanos) criticalPathNanos = b;
    if (budget.spend(1 + end - successorStart[v]!)) yield;
  }

  return {
    nodeCount: n,
    edgeCount: m,
    costNanos: cost,
    retries: graph.retries,
    failProbability: graph.failProbability,
    kernels: graph.kernels,
    kernelOf: graph.kernelOf,
    inDegree,
    successorStart,
    successors,
    topoOrder,
    bLevel,
    workNanos,
    criticalPathNanos,
    nodeId,
  };
}

/** Nodes of a cycle named in an error before the rest is only counted. */
export const CYCLE_NODES_SHOWN = 20;

/**
 * `a → b → c → a`; a long cycle (a 100k-node ring) shows its first nodes and a count. Only the
 * nodes shown are named (naming a million-node ring would take one long step).
 */
function cycleText(cycle: readonly number[], nodeId: (i: number) => string): string {
  if (cycle.length <= CYCLE_NODES_SHOWN + 1) return cycle.map(nodeId).join(' → ');
  const more = cycle.length - 1 - CYCLE_NODES_SHOWN;
  const shown = cycle.slice(0, CYCLE_NODES_SHOWN).map(nodeId).join(' → ');
  return `${shown} → … and ${more} more (${cycle.length - 1} nodes in all)`;
}

/** The first node whose kernel is table entry `k` (to name it in an error), or -1. */
export function firstNodeOfKernel(graph: CompiledGraph, k: number): number {
  return graph.kernelOf.indexOf(k);
}

/**
 * After Kahn's algorithm every node left over (remaining > 0) has a left-over predecessor, so
 * walking predecessors from any of them must revisit a node: that loop is a cycle. Returns it in
 * edge direction, first node repeated at the end (`a → b → c → a`).
 */
function* findCycle(
  n: number,
  from: Int32Array,
  to: Int32Array,
  remaining: Int32Array,
  budget: WorkBudget,
): Steps<number[]> {
  // Both arrays hold value + 1, so a fresh (zero) array means "none" with no fill pass.
  const predPlus1 = new Int32Array(n);
  for (let e = 0; e < from.length; e++) {
    if (remaining[from[e]!]! > 0 && remaining[to[e]!]! > 0) predPlus1[to[e]!] = from[e]! + 1;
    if (budget.spend()) yield;
  }
  let start = 0;
  while (remaining[start]! <= 0) {
    start++;
    if (budget.spend()) yield;
  }
  const seenAtPlus1 = new Int32Array(n);
  const walk: number[] = [];
  while (seenAtPlus1[start] === 0) {
    walk.push(start);
    seenAtPlus1[start] = walk.length;
    start = predPlus1[start]! - 1;
    if (budget.spend()) yield;
  }
  const cycle = walk.slice(seenAtPlus1[start]! - 1).reverse();
  cycle.push(cycle[0]!);
  return cycle;
}
