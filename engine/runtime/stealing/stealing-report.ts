/**
 * Turns a finished work-stealing run (shared memory + each worker's loop stats) into the report
 * every graph run gives (docs/design.md §3.4): makespan from the first worker start to the last end,
 * work = the workers' busy time (wall time minus idle), critical path measured from the nodes'
 * run times (the graph's declared work and critical path beside them); plus
 * steals, idle time, verification and the sampled spans.
 */
import type { CompiledGraph } from '../../core/graph/compile.ts';
import type { GraphReport, RootCause } from '../../core/graph/graph-run.ts';
import { graphMetrics, measuredCriticalPath } from '../../core/graph/metrics.ts';
import { FAILED, SUCCEEDED, countStates } from '../../core/graph/node-state.ts';
import type { GraphSpan } from '../graph/span-ring.ts';
import { CTL_FAILED_NODE, SPANS_PER_WORKER, type RunViews } from './layout.ts';
import { verifyRun, type Verification } from './verify.ts';
import type { LoopStats } from './worker-loop.ts';

export interface StealingReport extends GraphReport {
  readonly nodesPerSecond: number;
  readonly steals: number;
  readonly stealAttempts: number;
  readonly sleeps: number;
  readonly idleNanos: number;
  readonly perWorker: readonly LoopStats[];
  readonly verification: Verification;
  /** Per-node results written by the `add` kernel. */
  readonly results: Int32Array;
  /** Sampled spans (one node in `spanSampleEvery`), times in ns from the run's start. */
  readonly spans: readonly GraphSpan[];
  readonly spanSampleEvery: number;
  /** Sampled spans that did not fit the per-worker rings. */
  readonly droppedSpans: number;
}

export function buildReport(
  graph: CompiledGraph,
  views: RunViews,
  stats: LoopStats[],
  kernelNames: readonly string[],
  verify: boolean,
  sampleEvery: number,
): StealingReport {
  const p = stats.length;
  // Integer ns since the run's origin throughout (the engine's time); the report counts from the
  // first worker's start.
  const originNanos = Math.min(...stats.map((s) => s.startNanos));
  const makespanNanos = Math.max(...stats.map((s) => s.endNanos)) - originNanos;
  const sum = (f: (s: LoopStats) => number) => stats.reduce((acc, s) => acc + f(s), 0);
  const busy = sum((s) => Math.max(0, s.endNanos - s.startNanos - s.idleNanos));
  // W is measured (busy time), so CP is too: the longest path by the nodes' measured times
  // (nodes without a cost count 0, which keeps it a lower bound). The declared ones go beside.
  return {
    ...graphMetrics(p, makespanNanos, busy, measuredCriticalPath(graph, views.ranNanos)),
    declaredWorkNanos: graph.workNanos,
    declaredCriticalPathNanos: graph.criticalPathNanos,
    counts: countStates(views.states),
    // Copies: the shared memory is reused by this graph's next run.
    states: views.states.slice(),
    rootCause: rootCause(graph, views, kernelNames),
    attempts: sum((s) => s.attempts),
    nodesPerSecond: makespanNanos > 0 ? graph.nodeCount / (makespanNanos / 1e9) : 0,
    steals: sum((s) => s.steals),
    stealAttempts: sum((s) => s.stealAttempts),
    sleeps: sum((s) => s.sleeps),
    idleNanos: sum((s) => s.idleNanos),
    perWorker: [...stats].sort((a, b) => a.workerId - b.workerId),
    verification: verifyRun(graph, views, kernelNames, verify),
    results: views.results.slice(),
    spans: sampledSpans(graph, views, stats, originNanos),
    spanSampleEvery: sampleEvery,
    droppedSpans: sum((s) => Math.max(0, s.spansWritten - SPANS_PER_WORKER)),
  };
}

function sampledSpans(
  graph: CompiledGraph,
  v: RunViews,
  stats: LoopStats[],
  originNanos: number,
): GraphSpan[] {
  const spans: GraphSpan[] = [];
  for (const s of stats) {
    const kept = Math.min(s.spansWritten, SPANS_PER_WORKER);
    for (let k = s.spansWritten - kept; k < s.spansWritten; k++) {
      const i = s.workerId * SPANS_PER_WORKER + (k % SPANS_PER_WORKER);
      const node = v.spanNode[i]!;
      const state = v.spanOutcome[i]!;
      spans.push({
        node: graph.nodeId(node),
        nodeIndex: node,
        workerId: s.workerId,
        startNanos: v.spanStart[i]! - originNanos,
        endNanos: v.spanEnd[i]! - originNanos,
        outcome: state === SUCCEEDED ? 'finished' : state === FAILED ? 'failed' : 'cancelled',
      });
    }
  }
  return spans.sort((a, b) => a.startNanos - b.startNanos);
}

/** Fail-fast: the node that stopped the run; continue: the lowest-index failed node, if any. */
function rootCause(
  graph: CompiledGraph,
  v: RunViews,
  kernelNames: readonly string[],
): RootCause | null {
  const failFastNode = v.ctl[CTL_FAILED_NODE]!;
  const index = failFastNode >= 0 ? failFastNode : v.states.indexOf(FAILED);
  if (index < 0) return null;
  const kernel = kernelNames[v.kernelOf[index]!] ?? '?';
  return {
    node: graph.nodeId(index),
    index,
    message: `kernel "${kernel}" threw on node ${graph.nodeId(index)}`,
  };
}
