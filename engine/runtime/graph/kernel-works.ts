/**
 * The backend work of a graph's kernels (docs/design.md §3.4): one vocabulary for the central
 * executor and a graph run as an executor job. A bad kernel name is a coded error naming a node.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { firstNodeOfKernel, type CompiledGraph } from '../../core/graph/compile.ts';
import { DEFAULT_GRAPH_KERNEL, canonicalKernel } from '../../core/graph/kernels.ts';
import type { KernelName, SplitWork } from '../backend.ts';

const BACKEND_KERNELS: readonly string[] = ['hash', 'sort', 'compress', 'matmul', 'spin', 'sleep'];
/** The kernel a node without one runs (engine/core/graph/kernels.ts). */
export const DEFAULT_CENTRAL_KERNEL = DEFAULT_GRAPH_KERNEL as KernelName;

/** The work each kernel of `graph` runs (per `graph.kernelOf`); `UNKNOWN_KERNEL` for a bad name. */
export function kernelWorks(graph: CompiledGraph): SplitWork[] {
  return graph.kernels.map((k, i) => toWork(k, i, graph));
}

function toWork(
  kernel: CompiledGraph['kernels'][number],
  index: number,
  graph: CompiledGraph,
): SplitWork {
  if (kernel === null) return { kernel: DEFAULT_CENTRAL_KERNEL, totalNanos: 0 };
  if (typeof kernel !== 'string') {
    return {
      kernel:
        kernel.exportName === undefined
          ? { module: kernel.module }
          : { module: kernel.module, exportName: kernel.exportName },
      totalNanos: 0,
    };
  }
  // `spin-us` (the stealing executor's name) is `spin` here: one vocabulary for both executors.
  const name = canonicalKernel(kernel);
  if (!BACKEND_KERNELS.includes(name)) {
    throw new SchedLabError(
      'UNKNOWN_KERNEL',
      `kernel: no backend kernel "${kernel}" (node "${graph.nodeId(Math.max(0, firstNodeOfKernel(graph, index)))}")`,
      'kernel',
    );
  }
  return { kernel: name as KernelName, totalNanos: 0 };
}
