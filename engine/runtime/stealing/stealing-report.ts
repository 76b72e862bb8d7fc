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
import { FAILED, SUCCEEDED } from '../../core/graph/node-state.ts';
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
  /**
   * One entry per worker; in a solo run (`solo`) one entry only, the calling thread's, which ran
   * every node (workerId 0 names its lane, and `workers` is 1).
   */
  readonly perWorker: readonly LoopStats[];
  /** True when the graph ran on the calling thread, not the workers (`solo-loop.ts`). */
  readonly solo: boolean;
  /**
   * Checked after every run: every node ended, every `add` node's result is right (the per-node
   * results stay in the executor's memory; the report no longer copies them, see `buildReport`).
   */
  readonly verification: Verification;
  /** Sampled spans (one node in `spanSampleEvery`), times in ns from the run's start. */
  readonly spans: readonly GraphSpan[];
  readonly spanSampleEvery: number;
  /** Sampled spans that did not fit the per-worker rings. */
  readonly droppedSpans: number;
}

/**
 * `states` is the report's own copy of the run's states (the shared memory is reused by this
 * graph's next run), allocated by the executor while the workers run: fresh memory costs more than
 * the copy into it on the project's machines (each new page faults; 40 kB took 0.15–0.25 ms, more
 * than the rest of a 10k-node run's report). For the same reason the report carries no copy of
 * the per-node results, which no caller read: the verification pass checks them in place.
 */
export function buildReport(
  graph: CompiledGraph,
  views: RunViews,
  stats: LoopStats[],
  kernelNames: readonly string[],
  verify: boolean,
  sampleEvery: number,
  states: Uint8Array,
  solo: boolean,
): StealingReport {
  states.set(views.states);
  const { counts, verification } = verifyRun(graph, views, states, kernelNames, verify);
  const p = stats.length;
  // Integer ns since the run's origin throughout (the engine's time); the report counts from the
  // first worker's start.
  const originNanos = Math.min(...stats.map((s) => s.startNanos));
  const makespanNanos = Math.max(...stats.map((s) => s.endNanos)) - originNanos;
  const sum = (f: (s: LoopStats) => number) => stats.reduce((acc, s) => acc + f(s), 0);
  const busy = sum((s) => Math.max(0, s.endNanos - s.startNanos - s.idleNanos));
  // W is measured (busy time), so CP is too: the longest path by the nodes' measured times
  // (nodes without a cost count 0, which keeps it a lower bound; with no cost anywhere nothing
  // was timed and it is 0 without a walk). The declared ones go beside.
  const report = {
    ...graphMetrics(
      p,
      makespanNanos,
      busy,
      graph.workNanos > 0 ? measuredCriticalPath(graph, views.ranNanos) : 0,
    ),
    declaredWorkNanos: graph.workNanos,
    declaredCriticalPathNanos: graph.criticalPathNanos,
    counts,
    states,
    rootCause: rootCause(graph, views, states, kernelNames, counts.failed),
    attempts: sum((s) => s.attempts),
    nodesPerSecond: makespanNanos > 0 ? graph.nodeCount / (makespanNanos / 1e9) : 0,
    steals: sum((s) => s.steals),
    stealAttempts: sum((s) => s.stealAttempts),
    sleeps: sum((s) => s.sleeps),
    idleNanos: sum((s) => s.idleNanos),
    perWorker: [...stats].sort((a, b) => a.workerId - b.workerId),
    solo,
    verification,
    spanSampleEvery: sampleEvery,
    droppedSpans: sum((s) => Math.max(0, s.spansWritten - SPANS_PER_WORKER)),
  };
  return withLazySpans(report, copySpans(graph, views, stats, originNanos));
}

/** One worker's kept spans, copied out of the shared rings (the next run overwrites them). */
interface SpanCopy {
  readonly workerId: number;
  readonly written: number;
  readonly node: Int32Array;
  readonly outcome: Uint8Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
}

/**
 * Copies the kept spans (typed-array copies, no object per span) and returns a function that
 * makes the span objects. A 10k-node graph samples every node, and building 10k objects with
 * their node ids on every run cost more than the run itself; a caller that never reads `spans`
 * no longer pays for them.
 */
function copySpans(
  graph: CompiledGraph,
  v: RunViews,
  stats: LoopStats[],
  originNanos: number,
): () => GraphSpan[] {
  const copies: SpanCopy[] = stats.map((s) => {
    const base = s.workerId * SPANS_PER_WORKER;
    // The ring's first min(written, size) slots: all of it once it wrapped.
    const to = base + Math.min(s.spansWritten, SPANS_PER_WORKER);
    return {
      workerId: s.workerId,
      written: s.spansWritten,
      node: v.spanNode.slice(base, to),
      outcome: v.spanOutcome.slice(base, to),
      start: v.spanStart.slice(base, to),
      end: v.spanEnd.slice(base, to),
    };
  });
  return () => {
    const spans: GraphSpan[] = [];
    for (const c of copies) {
      const kept = c.node.length;
      for (let k = c.written - kept; k < c.written; k++) {
        const i = k % SPANS_PER_WORKER;
        const node = c.node[i]!;
        const state = c.outcome[i]!;
        spans.push({
          node: graph.nodeId(node),
          nodeIndex: node,
          workerId: c.workerId,
          startNanos: c.start[i]! - originNanos,
          endNanos: c.end[i]! - originNanos,
          outcome: state === SUCCEEDED ? 'finished' : state === FAILED ? 'failed' : 'cancelled',
        });
      }
    }
    afterPredecessors(graph, spans);
    return spans.sort((a, b) => a.startNanos - b.startNanos);
  };
}

/**
 * A node started after its predecessors ended (it was released by the last of them), but each
 * worker reads its own clock, and two threads' readings differ by up to a few µs under load: a
 * successor's span read as starting before its predecessor's end is moved to that end, as it ran.
 */
function afterPredecessors(graph: CompiledGraph, spans: GraphSpan[]): void {
  type Times = { startNanos: number; endNanos: number };
  const byNode = new Map<number, Times>();
  for (const s of spans) byNode.set(s.nodeIndex, s);
  // Until nothing moves: a span moved may push its own successors' (a few passes; spans are a
  // bounded sample).
  for (let pass = 0, moved = true; moved && pass <= spans.length; pass++) {
    moved = false;
    for (const s of spans) {
      const end = byNode.get(s.nodeIndex)!.endNanos;
      const to = graph.successorStart[s.nodeIndex + 1]!;
      for (let k = graph.successorStart[s.nodeIndex]!; k < to; k++) {
        const next = byNode.get(graph.successors[k]!);
        if (next === undefined || next.startNanos >= end) continue;
        next.startNanos = end;
        if (next.endNanos < end) next.endNanos = end;
        moved = true;
      }
    }
  }
}

/**
 * Defines `spans` on the report as an enumerable property made on first read and then kept, so
 * spreading, JSON and structured clone still see an ordinary array.
 */
function withLazySpans<T extends object>(
  report: T,
  make: () => GraphSpan[],
): T & { readonly spans: readonly GraphSpan[] } {
  let spans: GraphSpan[] | null = null;
  return Object.defineProperty(report, 'spans', {
    enumerable: true,
    get: () => (spans ??= make()),
  }) as T & { readonly spans: readonly GraphSpan[] };
}

/** Fail-fast: the node that stopped the run; continue: the lowest-index failed node, if any. */
function rootCause(
  graph: CompiledGraph,
  v: RunViews,
  states: Uint8Array,
  kernelNames: readonly string[],
  failed: number,
): RootCause | null {
  const failFastNode = v.ctl[CTL_FAILED_NODE]!;
  // The scan for a failed node only when one failed (a scan costs every run ~10 µs at 10k).
  const index = failFastNode >= 0 ? failFastNode : failed > 0 ? states.indexOf(FAILED) : -1;
  if (index < 0) return null;
  const kernel = kernelNames[v.kernelOf[index]!] ?? '?';
  return {
    node: graph.nodeId(index),
    index,
    message: `kernel "${kernel}" threw on node ${graph.nodeId(index)}`,
  };
}
