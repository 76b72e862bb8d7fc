/**
 * Graph workloads (docs/design.md §3.4, §5): each graph document of the workload runs in turn on the
 * graph engineer's executors — the central executor over the run's backend (`sim` or `threads`),
 * or the work-stealing executor (`threads` only). The report's `dag` section is that of the runs
 * composed in sequence (W and CP add up), and each graph's own figures are listed in `dags`.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  generatorSpecSchema,
  checkedGraphDocument,
  type GraphDocument,
  type GraphPolicy,
} from '../../../shared/graph.ts';
import type { Workload } from '../../../shared/workload.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { graphMetrics } from '../../core/graph/metrics.ts';
import type { Backend } from '../../runtime/backend.ts';
import { runCompiledGraph, type GraphRunResult } from '../../runtime/graph/run-graph.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { StealingExecutor } from '../../runtime/stealing/stealing-executor.ts';
import { checkedGraph, listSettings } from '../graph/graph-docs.ts';
import { TappedBackend } from '../graph/tapped-backend.ts';
import { EventLoopTurns } from './event-loop-turns.ts';
import { TraceWindow } from '../trace/trace-window.ts';
import type { ClassReport } from './class-stats.ts';
import { countFailure, failuresField, type FailureRow } from './collector.ts';
import { GraphProgressTap, type GraphProgress } from './graph-progress.ts';
import { ms3, round3, type DagReport, type RunReport } from './report.ts';
import { Jain } from './summary-stats.ts';

export interface GraphOutcome {
  dag: DagReport;
  /** Jain's index over the graphs that ran, each a job (docs/metrics.md, "Jain (report)"). */
  jain: Jain;
  dags: (DagReport & {
    name: string;
    executor: string;
    /** The ready-queue policy: central runs only (work stealing has none). */
    policy?: string;
    nodes: number;
    /** Nodes that failed (after their retries), were cancelled (fail-fast), or were skipped. */
    failed: number;
    cancelled: number;
    skipped: number;
    /** The first node that failed and why (fail-fast stops the graph there). */
    rootCause?: { node: string; message: string };
    /** Spans the executor's ring let go before the trace saw them (with `--trace` only). */
    droppedSpans?: number;
    /** Work stealing with `--trace`: one node in this many has a span (sampled, not dropped). */
    spanSampleEvery?: number;
    /** Work stealing: true when the graph ran solo on the calling thread, not on the workers. */
    solo?: boolean;
  })[];
  classes: Record<string, ClassReport>;
  /** Graphs that did not succeed, by code: the report's `failures`. */
  failures: Map<string, FailureRow>;
  makespanNanos: number;
  dispatches: number;
  trace: TraceWindow | null;
}

/** Generators that draw from a seed (the others are fixed shapes and have no `seed` field). */
const SEEDED_GENERATORS: ReadonlySet<string> = new Set(
  generatorSpecSchema.options.filter((o) => 'seed' in o.shape).map((o) => o.shape.generator.value),
);

export interface GraphOverrides {
  /** Replaces the seed of every generator that draws from one (`--seed`). */
  seed?: number;
  /** Replaces every document's ready-queue policy (`--policy` on a graph workload). */
  policy?: GraphPolicy;
}

/**
 * The workload with its graph documents' seed and policy replaced: a graph document carries its
 * own, so the run's seed and policy would otherwise never reach it. Bad documents pass through
 * untouched for `graphDocuments` to report.
 */
export function withGraphOverrides(workload: Workload, o: GraphOverrides): Workload {
  if (workload.graph === undefined || (o.seed === undefined && o.policy === undefined))
    return workload;
  const edit = (doc: unknown): unknown => {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
    const out: Record<string, unknown> = { ...doc };
    if (o.policy !== undefined) out['policy'] = o.policy;
    if (o.seed !== undefined && SEEDED_GENERATORS.has(String(out['generator'])))
      out['seed'] = o.seed;
    return out;
  };
  const graph = Array.isArray(workload.graph) ? workload.graph.map(edit) : edit(workload.graph);
  return { ...workload, graph };
}

/** Where document `i` sits in the workload: `graph`, or `graph[i]` in a list. */
function docPath(workload: Workload, i: number): (string | number)[] {
  return Array.isArray(workload.graph) ? ['graph', i] : ['graph'];
}

/**
 * The workload's graph documents, validated; errors name the field (`graph[1].depth …`). Every
 * graph of a list runs under the list's settings (`listSettings`: the first document's executor,
 * policy and error mode), as in a live session.
 */
export function graphDocuments(workload: Workload): GraphDocument[] {
  const raw = workload.graph;
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0)
    throw new SchedLabError('INVALID_WORKLOAD', 'graph must have at least 1 entry', 'graph');
  const docs = list.map((doc, i) => checkedGraphDocument(doc, docPath(workload, i)));
  const { executor, policy, errorMode } = listSettings(docs);
  return docs.map((d) => ({ ...d, executor, policy, errorMode }));
}

/** Compiles a document and checks its kernels; what is wrong is named where it sits in the workload. */
function compileAt(
  workload: Workload,
  doc: GraphDocument,
  i: number,
  pastLimit?: () => Error | null,
): CompiledGraph {
  return checkedGraph(doc, doc.executor, docPath(workload, i), pastLimit);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The graph's declared work and critical path, when the run's are measured (threads). */
interface Declared {
  work: number;
  cp: number;
}

function dagOf(
  workers: number,
  makespan: number,
  work: number,
  cp: number,
  steals: number,
  declared: Declared | null = null,
): DagReport {
  const m = graphMetrics(workers, makespan, work, cp);
  return {
    workMs: ms3(m.workNanos),
    criticalPathMs: ms3(m.criticalPathNanos),
    lowerBoundMs: ms3(m.lowerBoundNanos),
    efficiency: round3(m.efficiency),
    grahamRatio: round3(m.grahamRatio),
    utilization: round3(m.utilization),
    steals,
    ...(declared === null
      ? {}
      : { declaredWorkMs: ms3(declared.work), declaredCriticalPathMs: ms3(declared.cp) }),
  };
}

function addDeclared(a: Declared | null, b: Declared): Declared {
  return a === null ? b : { work: a.work + b.work, cp: a.cp + b.cp };
}

function declaredOf(r: GraphRunResult): Declared | null {
  return r.declaredWorkNanos === undefined || r.declaredCriticalPathNanos === undefined
    ? null
    : { work: r.declaredWorkNanos, cp: r.declaredCriticalPathNanos };
}

function graphName(doc: GraphDocument, i: number): string {
  return `${'generator' in doc ? doc.generator : 'graph'}-${i}`;
}

/** Events the simulator runs between two looks at the wall clock (a graph's: 15 µs each here). */
const EVENTS_PER_SLICE = 1 << 10;

/**
 * Runs the simulator to idle in slices, giving the event loop a turn every few ms of wall time: a
 * `compare` of a large graph in a live session, driven to idle in one call, held it 20 s without
 * a frame or an answer to anyone (as `driveSim` does for job runs: `EventLoopTurns`).
 */
async function runSimToIdle(sim: SimBackend, pastLimit: () => Error | null): Promise<void> {
  const turns = new EventLoopTurns();
  while (!sim.idle) {
    sim.runUntilIdle(EVENTS_PER_SLICE);
    await turns.take();
    // A command in that turn (a compare's cancel) stops the run before its next slice.
    const stop = pastLimit();
    if (stop !== null) throw stop;
  }
}

export async function runGraphs(
  workload: Workload,
  docs: readonly GraphDocument[],
  backend: Backend,
  config: EngineConfig,
  traceCapacity: number | null,
  hooks: {
    onProgress?: ((p: GraphProgress) => void) | undefined;
    /**
     * Asked between compile steps and between the simulator's slices (`RunOptions.pastLimit`: the
     * CLI's `--time-limit`, a compare's cancel): an error returned ends the run.
     */
    pastLimit?: (() => Error | null) | undefined;
  } = {},
): Promise<GraphOutcome> {
  const { onProgress, pastLimit = () => null } = hooks;
  if (docs.some((d) => d.executor === 'stealing') && backend.kind !== 'threads') {
    throw new SchedLabError(
      'INVALID_WORKLOAD',
      'graph.executor stealing runs on the threads backend only (--backend threads)',
      'graph.executor',
    );
  }
  const trace = traceCapacity === null ? null : new TraceWindow(traceCapacity);
  const stealing = docs.some((d) => d.executor === 'stealing')
    ? await StealingExecutor.start(config.workers)
    : null;
  const out: GraphOutcome = {
    dag: dagOf(config.workers, 0, 0, 0, 0),
    jain: new Jain(),
    dags: [],
    classes: {},
    failures: new Map(),
    makespanNanos: 0,
    dispatches: 0,
    trace,
  };
  let work = 0;
  let cp = 0;
  let declared: Declared | null = null;
  let steals = 0;
  let splitBase = 0;
  // Every graph is compiled and checked before the first runs, as in a live session (the list's
  // nodes and edges are bounded together, shared/graph.ts): a cyclic graph or an unknown kernel
  // later in a list was found only at its turn, or never after a fail-fast stop (exit 0).
  const compiled: (CompiledGraph | null)[] = docs.map((d, i) =>
    compileAt(workload, d, i, pastLimit),
  );
  const tap =
    onProgress === undefined
      ? null
      : new GraphProgressTap(sum(compiled.map((g) => g!.nodeCount)), onProgress);
  const run = tap === null ? backend : new TappedBackend(backend, tap);
  tap?.emit();
  try {
    for (const [i, doc] of docs.entries()) {
      const name = docs.length === 1 ? workload.name : graphName(doc, i);
      const graph = compiled[i]!;
      compiled[i] = null; // let go of each graph once it has run
      const start = backend.now();
      // The document is validated and compiled already (graphDocuments, compileAt): once per run.
      const pending = runCompiledGraph(
        doc,
        graph,
        // The run's hard limit reaches its graphs' nodes (it was printed but not applied).
        stealing === null
          ? { backend: run, hardKillAfterMs: config.hardKillAfterMs, driveSim: false }
          : { backend: run, stealing, hardKillAfterMs: config.hardKillAfterMs, driveSim: false },
      );
      if (backend instanceof SimBackend) await runSimToIdle(backend, pastLimit);
      const result = await pending;
      const s = result.executor === 'stealing' ? result.steals : 0;
      const counts = {
        failed: result.counts['failed'] ?? 0,
        cancelled: result.counts['cancelled'] ?? 0,
        skipped: result.counts['skipped'] ?? 0,
      };
      // Nodes that did not succeed: the graph, one job, failed (its class's row says so).
      const failed = counts.failed + counts.cancelled + counts.skipped;
      const cause = result.rootCause;
      if (failed > 0) noteFailure(out.failures, name, cause);
      // With a trace, spans the executor's ring dropped are the trace's loss too: counted.
      const dropped = trace === null ? 0 : result.droppedSpans;
      trace?.addDropped(dropped);
      out.dags.push({
        name,
        executor: result.executor,
        ...(result.executor === 'central' ? { policy: doc.policy } : {}),
        nodes: graph.nodeCount,
        ...counts,
        ...(cause === null ? {} : { rootCause: { node: cause.node, message: cause.message } }),
        ...(dropped > 0 ? { droppedSpans: dropped } : {}),
        ...(result.executor === 'stealing' && result.solo ? { solo: true } : {}),
        ...(trace !== null && result.executor === 'stealing' && result.spanSampleEvery > 1
          ? { spanSampleEvery: result.spanSampleEvery }
          : {}),
        ...dagOf(
          config.workers,
          result.makespanNanos,
          result.workNanos,
          result.criticalPathNanos,
          s,
          declaredOf(result),
        ),
      });
      out.classes[name] = graphClass(result, failed);
      // As a job's: scheduled time / latency / splits (a graph's work / makespan / nodes).
      if (result.makespanNanos > 0)
        out.jain.add(result.workNanos / result.makespanNanos / graph.nodeCount);
      out.makespanNanos += result.makespanNanos;
      // Work stealing: one dispatch a node attempt (a retry is another; a skipped node is none).
      out.dispatches += result.executor === 'central' ? result.dispatches : result.attempts;
      work += result.workNanos;
      cp += result.criticalPathNanos;
      const d = declaredOf(result);
      if (d !== null) declared = addDeclared(declared as Declared | null, d);
      steals += s;
      if (trace !== null)
        addToTrace(
          trace,
          result,
          graph,
          i + 1,
          name,
          splitBase,
          result.executor === 'stealing' ? start : 0,
        );
      splitBase += graph.nodeCount;
      tap?.graphEnded(splitBase);
      // Fail-fast stops the list, as in a live session: the graphs after it do not run, and
      // each is one cancelled job (the app counts their nodes cancelled).
      if (failed > 0 && doc.errorMode === 'fail-fast') {
        for (let j = i + 1; j < docs.length; j++) out.classes[graphName(docs[j]!, j)] = notRun();
        break;
      }
    }
  } finally {
    await stealing?.close();
  }
  out.dag = dagOf(config.workers, out.makespanNanos, work, cp, steals, declared);
  return out;
}

/**
 * A graph that did not succeed, as a job run's failures are counted: by code, the first one's
 * reason — the root cause, or why nodes were cancelled when none failed.
 */
function noteFailure(
  failures: GraphOutcome['failures'],
  name: string,
  cause: { node: string; message: string } | null,
): void {
  const why = cause === null ? 'nodes cancelled' : `node ${cause.node}: ${cause.message}`;
  countFailure(failures, cause === null ? 'CANCELLED' : 'KERNEL_FAILED', `graph ${name}: ${why}`);
}

/** A graph of a list that a fail-fast failure before it kept from running. */
function notRun(): ClassReport {
  const none = { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  return {
    jobs: 1,
    succeeded: 0,
    failed: 0,
    cancelled: 1,
    rejected: 0,
    unfinished: 0,
    latencyMs: none,
    scheduledMs: 0,
    maxRequeueWaitMs: 0,
    basePriority: null,
  };
}

function graphClass(r: GraphRunResult, failed: number): ClassReport {
  const makespan = ms3(r.makespanNanos);
  const latency = { p50: makespan, p95: makespan, p99: makespan, max: makespan, mean: makespan };
  const none = { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  return {
    jobs: 1,
    succeeded: failed === 0 ? 1 : 0,
    failed: failed === 0 ? 0 : 1,
    cancelled: 0,
    rejected: 0,
    unfinished: 0,
    latencyMs: failed === 0 ? latency : none,
    scheduledMs: ms3(r.workNanos),
    maxRequeueWaitMs: 0,
    basePriority: null,
  };
}

/** Spans become slices (split id = run offset + node index + 1, never 0); edges become flows. */
function addToTrace(
  trace: TraceWindow,
  r: GraphRunResult,
  graph: CompiledGraph,
  job: number,
  cls: string,
  base: number,
  origin: number,
): void {
  for (const s of r.spans) {
    trace.addSpan({
      worker: s.workerId,
      startNanos: origin + s.startNanos,
      endNanos: origin + s.endNanos,
      jobId: job,
      taskId: job,
      splitId: base + s.nodeIndex + 1,
      level: 0,
      outcome: s.outcome,
      cls,
      node: s.node,
    });
  }
  for (let v = 0; v < graph.nodeCount; v++) {
    for (let k = graph.successorStart[v]!; k < graph.successorStart[v + 1]!; k++)
      trace.addEdge(base + v + 1, base + graph.successors[k]! + 1);
  }
}

export function graphReport(
  workload: Workload,
  backend: RunReport['backend'],
  seed: number,
  config: EngineConfig,
  g: GraphOutcome,
): RunReport {
  return {
    workload: workload.name,
    backend,
    seed,
    config,
    makespanMs: ms3(g.makespanNanos),
    stoppedAtMs: null,
    classes: g.classes,
    levels: [
      {
        level: 0,
        label: 'graph',
        scheduledMs: g.dag.workMs,
        chargedMs: g.dag.workMs,
        share: g.dag.workMs > 0 ? 1 : 0,
        selections: g.dispatches,
      },
    ],
    workers: { count: config.workers, utilization: g.dag.utilization },
    fairness: { jain: g.jain.value },
    counters: {
      quanta: g.dispatches,
      overrunMs: 0,
      spansDropped: g.trace?.droppedSpans ?? 0,
      splitsRejected: 0,
    },
    ...failuresField(g.failures),
    dag: g.dag,
    dags: g.dags,
  };
}
