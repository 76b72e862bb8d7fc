/**
 * The central executor's ready queue for graph nodes, ordered by the graph policy
 * (docs/design.md §3.4). A binary heap of node indices over typed arrays, keyed by (primary, sequence):
 * the sequence is the order nodes became ready, so equal keys stay FIFO (and `lifo` is the
 * negated sequence). Capacity is the node count: a node is queued at most once at a time.
 */
import type { GraphPolicy } from '../../../shared/graph.ts';
import type { CompiledGraph } from './compile.ts';

export class ReadyOrder {
  private readonly heap: Int32Array;
  private readonly primary: Float64Array;
  private readonly sequence: Float64Array;
  private readonly keyOf: (node: number) => number;
  private nextSequence = 0;
  private count = 0;

  constructor(
    graph: CompiledGraph,
    readonly policy: GraphPolicy,
  ) {
    const n = graph.nodeCount;
    this.heap = new Int32Array(n);
    this.primary = new Float64Array(n);
    this.sequence = new Float64Array(n);
    this.keyOf = primaryKey(graph, policy);
  }

  get size(): number {
    return this.count;
  }

  offer(node: number): void {
    const seq = this.nextSequence++;
    this.primary[node] = this.keyOf(node);
    this.sequence[node] = this.policy === 'lifo' ? -seq : seq;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = this.heap[parent]!;
      if (!this.less(node, p)) break;
      this.heap[i] = p;
      i = parent;
    }
    this.heap[i] = node;
  }

  /** The next node to run, or -1 when empty. */
  poll(): number {
    if (this.count === 0) return -1;
    const top = this.heap[0]!;
    const last = this.heap[--this.count]!;
    const n = this.count;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.less(this.heap[right]!, this.heap[left]!) ? right : left;
      if (!this.less(this.heap[child]!, last)) break;
      this.heap[i] = this.heap[child]!;
      i = child;
    }
    this.heap[i] = last;
    return top;
  }

  private less(a: number, b: number): boolean {
    const pa = this.primary[a]!;
    const pb = this.primary[b]!;
    return pa < pb || (pa === pb && this.sequence[a]! < this.sequence[b]!);
  }
}

/** Smaller runs first; "highest first" policies negate. */
function primaryKey(graph: CompiledGraph, policy: GraphPolicy): (node: number) => number {
  const { costNanos, bLevel, successorStart } = graph;
  switch (policy) {
    case 'fifo':
    case 'lifo':
      return () => 0;
    case 'most-successors':
      return (v) => successorStart[v]! - successorStart[v + 1]!;
    case 'sjf':
      return (v) => costNanos[v]!;
    case 'ljf':
      return (v) => -costNanos[v]!;
    case 'critical-path':
      return (v) => -bLevel[v]!;
  }
}
