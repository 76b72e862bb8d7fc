/**
 * The kernel vocabulary both graph executors share (docs/design.md §3.4 — docs/design.md §3.4): a
 * node's `cost` is what it runs for under either executor, so one graph document runs on both.
 * `spin` (the central executor's name) and `spin-us` (the work-stealing executor's) are one
 * kernel: busy for the node's cost; a node without a kernel runs it, so a node of cost 0 returns
 * at once. Each executor has a few kernels of its own besides (backend kernels such as `hash` on
 * the central one; `noop`, `add`, `fail` on the stealing one).
 */
export const DEFAULT_GRAPH_KERNEL = 'spin';

/** The shared names of the cost kernel. */
export const COST_KERNEL_NAMES: readonly string[] = ['spin', 'spin-us'];

/** `spin-us` and `spin` name one kernel; any other name is itself. */
export function canonicalKernel(name: string): string {
  return COST_KERNEL_NAMES.includes(name) ? DEFAULT_GRAPH_KERNEL : name;
}
