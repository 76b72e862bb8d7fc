/**
 * Solo runs (docs/design.md §3.4): a small graph of instant nodes runs on the calling thread, in
 * topological order, over the same shared memory a worker run uses, so the report is built the
 * same way (`stealing-report.ts`). A worker run pays two wake-ups (a worker, then the main thread
 * at the end), which at 10k instant nodes cost more than the nodes themselves; run here, the
 * graph blocks the caller's event loop for about as long as its nodes take (measured in
 * docs/design.md §3.4), which `soloNodes` bounds.
 *
 * Only graphs whose kernels are all `INSTANT_KERNELS` and that declare no cost run solo: such a
 * kernel never throws and never waits, so no node fails, retries or needs cancelling mid-run, and
 * the order of a solo run is any topological order.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { nanosSince, originNow } from '../threads/clock.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { SUCCEEDED } from '../../core/graph/node-state.ts';
import {
  INSTANT_KERNELS,
  stealingKernel,
  type KernelContext,
  type StealingKernel,
} from './kernels.ts';
import { CTL_CLOCK, SPANS_PER_WORKER, resetRun, type RunViews } from './layout.ts';
import { buildReport, type StealingReport } from './stealing-report.ts';
import type { LoopStats } from './worker-loop.ts';

/** Default `soloNodes`: the largest graph that runs solo (docs/design.md §3.4 says why). */
export const SOLO_NODES = 131_072;
/** The largest `soloNodes` accepted: beyond it a solo run blocks the event loop for tens of ms. */
export const MAX_SOLO_NODES = 1_048_576;

/** `soloNodes` as given to `StealingExecutor.start`, checked; the default when absent. */
export function checkSoloNodes(soloNodes: number | undefined): number {
  if (soloNodes === undefined) return SOLO_NODES;
  if (!Number.isInteger(soloNodes) || soloNodes < 0 || soloNodes > MAX_SOLO_NODES) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `soloNodes must be an integer in 0..${MAX_SOLO_NODES} (0: never solo), got ${soloNodes}`,
      'soloNodes',
    );
  }
  return soloNodes;
}

export interface SoloOptions {
  readonly verify: boolean;
  /** Kernel per kernel-table index. */
  readonly kernels: readonly StealingKernel[];
  /** Record one span every this many nodes (0 = none). */
  readonly sampleEvery: number;
  /** The run's time origin (`threads/clock.ts`): every time below is integer ns since it. */
  readonly origin: bigint;
}

/** Whether `graph`, with these kernel names, runs solo under a limit of `soloNodes` nodes. */
export function runsSolo(
  graph: CompiledGraph,
  kernelNames: readonly string[],
  soloNodes: number,
): boolean {
  if (graph.nodeCount > soloNodes || graph.workNanos !== 0) return false;
  // The kernels its nodes use: an explicit document's table always holds the default kernel
  // (`spin`, not instant) first, used or not, and kept every such graph off the solo path.
  const used = new Uint8Array(kernelNames.length);
  for (const k of graph.kernelOf) used[k] = 1;
  return kernelNames.every((k, i) => used[i] === 0 || INSTANT_KERNELS.includes(k));
}

/**
 * Runs `graph` solo over its memory `views` (which no worker may be using) and reports it. Check
 * `runsSolo` first: `kernelNames` must all be instant.
 */
export function runSolo(
  graph: CompiledGraph,
  views: RunViews,
  kernelNames: readonly string[],
  verify: boolean,
  sampleEvery: number,
): StealingReport {
  resetRun(views, graph.nodeCount, { verify, timed: false, solo: true });
  const kernels = kernelNames.map((k) => stealingKernel(k)!);
  const origin = originNow();
  const stats = runSoloLoop(views, graph.topoOrder, { verify, kernels, sampleEvery, origin });
  const states = new Uint8Array(graph.nodeCount);
  return buildReport(graph, views, [stats], kernelNames, verify, sampleEvery, states, true);
}

/**
 * Runs every node of the graph in `topoOrder` on this thread, writing states, results, spans
 * (the ring of lane 0) and, with `verify`, run counts and stamps into `v`, as a worker would.
 * Returns the caller's statistics as the run's only lane (workerId 0).
 */
export function runSoloLoop(v: RunViews, topoOrder: Int32Array, o: SoloOptions): LoopStats {
  const startNanos = nanosSince(o.origin);
  const perfStart = performance.now();
  const now = (): number => startNanos + Math.round((performance.now() - perfStart) * 1e6);
  const { states, kernelOf, ctl } = v;
  const { kernels, verify, sampleEvery } = o;
  // Instant kernels never check it (they never wait); the run cannot be cancelled mid-way anyway:
  // it holds the thread `cancel` would be called from.
  const ctx: KernelContext = { results: v.results, stopped: () => false };
  // One kernel for every node (the usual case) is called directly, without the table.
  const only = kernels.length === 1 ? kernels[0]! : null;
  const n = topoOrder.length;
  let spansWritten = 0;
  // The nodes between two sampled ones run in a tight loop (no sampling or verify test a node:
  // at 10k nodes those tests cost as much as the nodes); with `verify` every node is stamped.
  const step = verify ? 1 : sampleEvery > 0 ? sampleEvery : n + 1;
  for (let i = 0; i < n;) {
    const sampledAt = i + step - 1;
    const stop = Math.min(n, sampledAt);
    if (only !== null) for (; i < stop; i++) only(topoOrder[i]!, 0, ctx);
    else
      for (; i < stop; i++) {
        const node = topoOrder[i]!;
        kernels[kernelOf[node]!]!(node, 0, ctx);
      }
    if (i >= n) break;
    // Node i: stamped (`verify`) and/or sampled.
    const node = topoOrder[i++]!;
    const sampled = sampleEvery > 0 && (!verify || i % sampleEvery === 0);
    const spanStart = sampled ? now() : 0;
    if (verify) {
      v.runCount[node]!++;
      v.startStamp[node] = ctl[CTL_CLOCK]!++;
    }
    kernels[kernelOf[node]!]!(node, 0, ctx);
    if (verify) v.finishStamp[node] = ctl[CTL_CLOCK]!++;
    if (sampled) {
      const at = spansWritten++ % SPANS_PER_WORKER;
      v.spanNode[at] = node;
      v.spanOutcome[at] = SUCCEEDED;
      v.spanStart[at] = spanStart;
      v.spanEnd[at] = now();
    }
  }
  // Every node succeeded: an instant kernel never fails (one that threw would have ended the run
  // with its error), so the states are one fill rather than a store a node.
  states.fill(SUCCEEDED);
  return {
    workerId: 0,
    executed: n,
    attempts: n,
    steals: 0,
    stealAttempts: 0,
    sleeps: 0,
    idleNanos: 0,
    spansWritten,
    startNanos,
    endNanos: now(),
  };
}
