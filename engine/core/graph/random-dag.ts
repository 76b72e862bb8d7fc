/**
 * Random DAGs from plain integers, for property tests of every executor: edges always go from a
 * lower to a higher position of a permutation, so the result is acyclic whatever the input.
 * Callers feed it from fast-check; it is pure so any layer may use it.
 */
import type { GraphKernel } from '../../../shared/graph.ts';
import type { CompiledGraph } from './compile.ts';
import type { IndexedGraph } from './indexed-graph.ts';

export interface RandomDagInput {
  /** Node costs in ns; the length is the node count. */
  readonly costs: readonly number[];
  /** Pairs of node positions; (a, b) becomes an edge between the nodes at min and max. */
  readonly pairs: readonly (readonly [number, number])[];
  /** A permutation of 0..n-1: position → node index. */
  readonly order: readonly number[];
  readonly kernels?: readonly (GraphKernel | null)[];
  readonly kernelOf?: readonly number[];
  readonly retries?: readonly number[];
  readonly failProbability?: readonly number[];
}

export function randomDag(input: RandomDagInput): IndexedGraph {
  const n = input.costs.length;
  const from: number[] = [];
  const to: number[] = [];
  for (const [a, b] of input.pairs) {
    const lo = Math.min(a, b) % n;
    const hi = Math.max(a, b) % n;
    if (lo === hi) continue;
    from.push(input.order[Math.min(lo, hi)]!);
    to.push(input.order[Math.max(lo, hi)]!);
  }
  return {
    nodeCount: n,
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    costNanos: Float64Array.from(input.costs),
    retries: Uint8Array.from(input.retries ?? new Array<number>(n).fill(0)),
    failProbability:
      input.failProbability === undefined ? null : Float64Array.from(input.failProbability),
    kernels: input.kernels ?? [null],
    kernelOf: Uint16Array.from(input.kernelOf ?? new Array<number>(n).fill(0)),
    ids: null,
  };
}

/** Every node reachable from `roots` (not the roots themselves): the nodes a failure skips. */
export function descendants(g: CompiledGraph, roots: readonly number[]): Set<number> {
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const u = stack.pop()!;
    for (let k = g.successorStart[u]!; k < g.successorStart[u + 1]!; k++) {
      const s = g.successors[k]!;
      if (!seen.has(s)) (stack.push(s), seen.add(s));
    }
  }
  return seen;
}
