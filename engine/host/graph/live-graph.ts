/**
 * One graph run inside a live session (docs/design.md §3.4): its graphs run one after the other on
 * the chosen executor, and frames see it as it goes (`section()`, `drainSpans()`).
 *
 * Sharing the workers: a `central` graph is one job of the session's own executor per graph
 * (engine/runtime/graph/executor-graph.ts), its nodes splits released as their predecessors
 * succeed, so graph nodes and regular jobs share the workers under the executor's policy and
 * nothing is paused. Their quanta are the executor's spans, which reach the frames as every
 * job's do; here they are only labelled as the graph's (`labelSpans`: the run's job id, the graph
 * and node index, the node's name). A `stealing` graph runs on its own work-stealing pool (a
 * different machine) sized to the session's worker count; it keeps spans in shared memory and
 * samples them (one node in N), so its spans reach the frames when each graph ends.
 */
import type {
  GraphFrame,
  GraphMetricsRow,
  GraphRunState,
  SpanColumns,
} from '../../../shared/protocol.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { graphMetrics } from '../../core/graph/metrics.ts';
import type { Executor } from '../../runtime/executor/index.ts';
import { ExecutorGraph } from '../../runtime/graph/executor-graph.ts';
import { StealingExecutor } from '../../runtime/stealing/stealing-executor.ts';
import type { GraphPlan } from './graph-docs.ts';
import { NodeTracker } from './node-tracker.ts';
import { SpanBuffer } from './span-buffer.ts';
import { SplitLabels } from './split-labels.ts';

export interface LiveGraphOptions {
  readonly name: string;
  readonly jobId: number;
  readonly plan: GraphPlan;
  readonly workers: number;
  /** The session's clock (ns): the run's start and end, and its stealing spans' origin. */
  readonly now: () => number;
  /** Central runs: the session's executor, which runs each graph as one of its jobs. */
  readonly executor: Executor;
  readonly maxBufferedSpans?: number;
  readonly maxRecentSpans?: number;
}

export class LiveGraph {
  readonly done: Promise<void>;
  private state: GraphRunState = 'starting';
  private index = 0;
  private readonly trackers: NodeTracker[];
  private readonly spans: SpanBuffer;
  /** The latest spans frames carried, for a client that connects later (snapshot). */
  private readonly recent: SpanBuffer;
  private stealing: StealingExecutor | null = null;
  private central: ExecutorGraph | null = null;
  /** Which executor splits are this run's nodes (central), for labelling their spans. */
  private readonly labels = new SplitLabels();
  private startedAt = 0;
  private endedAt: number | null = null;
  private sampleEvery = 1;
  private metrics: GraphMetricsRow | null = null;
  private error: string | null = null;
  private cancelled = false;
  private totals = { makespan: 0, work: 0, cp: 0, steals: 0 };
  /** The graphs' declared work and CP, when the runs' are measured (threads): shown beside. */
  private declared: { work: number; cp: number } | null = null;

  /** What runs: the compiled graphs (their edges, for a frame's `graph.edges`). */
  get plan(): GraphPlan {
    return this.options.plan;
  }

  constructor(private readonly options: LiveGraphOptions) {
    this.trackers = options.plan.graphs.map((g) => new NodeTracker(g));
    this.spans = new SpanBuffer(options.maxBufferedSpans ?? 50_000);
    this.recent = new SpanBuffer(options.maxRecentSpans ?? 20_000);
    this.done = this.runAll().catch((e: unknown) => {
      this.state = 'failed';
      this.error ??= e instanceof Error ? e.message : String(e);
    });
  }

  get finished(): boolean {
    return this.state !== 'starting' && this.state !== 'running';
  }

  /** Stops the run: running nodes are cancelled, nothing new starts. */
  cancel(): void {
    this.cancelled = true;
    this.central?.cancel();
    this.stealing?.cancel();
  }

  /**
   * Labels the executor's spans of this run's nodes in `columns` (a frame's) as the graph's, and
   * moves the stealing spans no frame has carried yet into it.
   */
  drainSpans(columns: SpanColumns): void {
    this.labelSpans(columns);
    this.spans.copyTo(this.recent);
    this.spans.drainInto(columns, this.options.name, this.options.jobId, this.nodeId);
  }

  /** `drainSpans` for a snapshot's spans: the latest stealing spans are added, none taken away. */
  copyRecentSpans(columns: SpanColumns): void {
    this.labelSpans(columns);
    this.recent.copyInto(columns, this.options.name, this.options.jobId, this.nodeId);
  }

  private labelSpans(columns: SpanColumns): void {
    this.labels.label(columns, this.options.name, this.options.jobId, this.nodeId);
  }

  private readonly nodeId = (graph: number, node: number): string =>
    this.options.plan.graphs[graph]?.nodeId(node) ?? `n${node}`;

  section(): GraphFrame {
    const { plan } = this.options;
    const sum = (s: Parameters<NodeTracker['count']>[0]) =>
      this.trackers.reduce((acc, t) => acc + t.count(s), 0);
    const now = this.endedAt ?? this.clock();
    return {
      jobId: this.options.jobId,
      name: this.options.name,
      state: this.state,
      executor: plan.executor,
      policy: plan.policy,
      errorMode: plan.errorMode,
      graph: this.index,
      graphs: plan.graphs.length,
      nodes: {
        total: plan.graphs.reduce((acc, g) => acc + g.nodeCount, 0),
        pending: sum('pending'),
        ready: sum('ready'),
        running: sum('running'),
        succeeded: sum('succeeded'),
        failed: sum('failed'),
        skipped: sum('skipped'),
        cancelled: sum('cancelled'),
      },
      makespanMs: Math.max(0, now - this.startedAt) / 1e6,
      sampleEvery: this.sampleEvery,
      spansDropped: this.spans.dropped,
      metrics: this.metrics,
      error: this.error,
    };
  }

  private async runAll(): Promise<void> {
    const { plan } = this.options;
    this.startedAt = this.options.now();
    try {
      if (plan.executor === 'stealing') {
        this.stealing = await StealingExecutor.start(this.options.workers);
      }
      this.state = 'running';
      let ok = true;
      for (const [i, graph] of plan.graphs.entries()) {
        if (this.cancelled) break;
        this.index = i;
        ok = (await this.runOne(graph, i)) && ok;
        if (!ok && plan.errorMode === 'fail-fast') break;
      }
      const t = this.totals;
      const m = graphMetrics(this.options.workers, t.makespan, t.work, t.cp);
      this.metrics = {
        workers: m.workers,
        makespanMs: m.makespanNanos / 1e6,
        workMs: m.workNanos / 1e6,
        criticalPathMs: m.criticalPathNanos / 1e6,
        lowerBoundMs: m.lowerBoundNanos / 1e6,
        efficiency: m.efficiency,
        grahamRatio: m.grahamRatio,
        utilization: m.utilization,
        steals: t.steals,
        ...(this.declared === null
          ? {}
          : {
              declaredWorkMs: this.declared.work / 1e6,
              declaredCriticalPathMs: this.declared.cp / 1e6,
            }),
      };
      this.state = this.cancelled ? 'cancelled' : ok ? 'succeeded' : 'failed';
    } finally {
      this.endedAt = this.clock();
      for (const tracker of this.trackers) if (!tracker.settled) tracker.abandon();
      await this.stealing?.close();
    }
  }

  private clock(): number {
    return this.options.now();
  }

  /** Runs graph `i`; true when every node succeeded. */
  private async runOne(graph: CompiledGraph, i: number): Promise<boolean> {
    const tracker = this.trackers[i]!;
    const { plan } = this.options;
    if (this.stealing !== null) {
      const origin = this.clock();
      const report = await this.stealing.run(graph, { errorMode: plan.errorMode });
      this.sampleEvery = report.spanSampleEvery;
      for (const s of report.spans)
        this.spans.push({
          graph: i,
          node: s.nodeIndex,
          workerId: s.workerId,
          startNanos: origin + s.startNanos,
          endNanos: origin + s.endNanos,
          outcome: s.outcome,
        });
      this.spans.addDropped(report.droppedSpans);
      tracker.settle(report.states);
      this.add(report.makespanNanos, report.workNanos, report.criticalPathNanos, report.steals);
      this.addDeclared(report);
      if (report.rootCause !== null) this.error = report.rootCause.message;
      return report.counts.succeeded === graph.nodeCount;
    }
    this.central = new ExecutorGraph(this.options.executor, graph, {
      policy: plan.policy,
      errorMode: plan.errorMode,
      class: this.options.name,
      onNode: (e) => {
        if (e.kind === 'started') {
          this.labels.add(e.splitId, i, e.node);
          tracker.started(e.node);
        } else tracker.ended(e.node, END_OUTCOME[e.state]);
      },
    });
    if (this.cancelled) this.central.cancel(); // cancelled while the previous graph ended
    const report = await this.central.done;
    this.central = null;
    tracker.settle(report.states);
    this.add(report.makespanNanos, report.workNanos, report.criticalPathNanos, 0);
    this.addDeclared(report);
    if (report.rootCause !== null)
      this.error = `${report.rootCause.node}: ${report.rootCause.message}`;
    return report.counts.succeeded === graph.nodeCount;
  }

  private addDeclared(r: { declaredWorkNanos?: number; declaredCriticalPathNanos?: number }): void {
    if (r.declaredWorkNanos === undefined || r.declaredCriticalPathNanos === undefined) return;
    const d = this.declared ?? { work: 0, cp: 0 };
    this.declared = { work: d.work + r.declaredWorkNanos, cp: d.cp + r.declaredCriticalPathNanos };
  }

  private add(makespan: number, work: number, cp: number, steals: number): void {
    this.totals.makespan += makespan;
    this.totals.work += work;
    this.totals.cp += cp;
    this.totals.steals += steals;
  }
}

/** A node split's end as the tracker counts quantum outcomes. */
const END_OUTCOME = { succeeded: 'finished', failed: 'failed', cancelled: 'cancelled' } as const;
