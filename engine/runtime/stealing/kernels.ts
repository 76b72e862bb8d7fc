/**
 * Tiny kernels for the work-stealing executor, registered by name in every worker (closures never
 * cross threads; docs/design.md §3.4). A kernel returns true when it completed and false when it
 * stopped early because the run was cancelled (fail-fast); it throws to fail the node.
 */
import { DEFAULT_GRAPH_KERNEL } from '../../core/graph/kernels.ts';

export interface KernelContext {
  /** Per-node integer results (the `add` kernel writes here; checked after the run). */
  readonly results: Int32Array;
  /** True once a fail-fast run has stopped. */
  stopped(): boolean;
}

export type StealingKernel = (node: number, costNanos: number, ctx: KernelContext) => boolean;

/** What `add` stores for node v; the executor's verification recomputes it. */
export function addResult(node: number): number {
  return (Math.imul(node, 0x9e3779b1) + 12345) ^ (node >>> 3);
}

/** Busy for the node's cost (in µs granularity of the clock), checking for cancellation. */
const spin: StealingKernel = (_node, costNanos, ctx) => {
  if (costNanos <= 0) return true;
  const until = performance.now() + costNanos / 1e6;
  while (performance.now() < until) if (ctx.stopped()) return false;
  return true;
};

const builtins: Record<string, StealingKernel> = {
  noop: () => true,
  add: (node, _cost, ctx) => {
    ctx.results[node] = addResult(node);
    return true;
  },
  // One kernel under both names, as on the central executor (engine/core/graph/kernels.ts).
  spin,
  'spin-us': spin,
  /** Always throws: exercises error modes and retries. */
  fail: (node) => {
    throw new Error(`kernel "fail" failed on node ${node}`);
  },
};

export const STEALING_KERNELS: readonly string[] = Object.keys(builtins);
/**
 * Kernels that return at once, never throw and never wait: a graph of only these (and no cost)
 * may run solo on the caller's thread (`solo-loop.ts`). `spin` and `fail` are not among them.
 */
export const INSTANT_KERNELS: readonly string[] = ['noop', 'add'];
/** The kernel a node without one runs: its cost honoured, as on the central executor. */
export const DEFAULT_STEALING_KERNEL = DEFAULT_GRAPH_KERNEL;

export function stealingKernel(name: string): StealingKernel | undefined {
  return Object.hasOwn(builtins, name) ? builtins[name] : undefined;
}
