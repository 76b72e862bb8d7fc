/**
 * One graph run inside a live session (docs/design.md §3.4): its graphs run one after the other on
 * the chosen executor, and frames see it as it goes (`section()`, `drainSpans()`).
 *
 * Sharing the workers: the run gets its own backend (`central`) or work-stealing pool
 * (`stealing`) sized to the session's worker count, while the session pauses its executor (see
 * `Session.runGraph`), so the graph and the regular jobs never compete for the same cores. On a
 * `sim` session the run's sim backend is stepped with the session clock (`sync`); its times are
 * shifted onto the session's timeline. The stealing executor keeps spans in shared memory and
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
import type { Backend } from '../../runtime/backend.ts';
import { startGraphCentral, type CentralGraphRun } from '../../runtime/graph/index.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { StealingExecutor } from '../../runtime/stealing/stealing-executor.ts';
import type { GraphPlan } from './graph-docs.ts';
import { NodeTracker } from './node-tracker.ts';
import { SpanBuffer } from './span-buffer.ts';
import { TappedBackend } from './tapped-backend.ts';

export interface LiveGraphOptions {
  readonly name: string;
  readonly jobId: number;
  readonly plan: GraphPlan;
  readonly workers: number;
  /** The session's clock (ns): the run's times are shifted onto it. */
  readonly now: () => number;
  /** Central runs: the backend to run on (sized to `workers`; closed by the run). */
  readonly backend: () => Backend;
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
  private backend: Backend | null = null;
  private stealing: StealingExecutor | null = null;
  private central: CentralGraphRun | null = null;
  /** Session ns = run ns + shift. */
  private shift: number;
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
    this.shift = 0;
    this.done = this.runAll().catch((e: unknown) => {
      this.state = 'failed';
      this.error ??= e instanceof Error ? e.message : String(e);
    });
  }

  get finished(): boolean {
    return this.state !== 'starting' && this.state !== 'running';
  }

  /** Sim: steps the run's backend up to session time `nowNanos`. */
  sync(nowNanos: number): void {
    if (this.backend instanceof SimBackend && !this.finished)
      this.backend.runUntil(Math.max(this.backend.now(), nowNanos - this.shift));
  }

  /** Sim: whether the run's backend has events left (a run between graphs has none). */
  get pendingEvents(): number {
    return this.backend instanceof SimBackend ? this.backend.pendingEvents : 0;
  }

  /** Stops the run: running nodes are cancelled, nothing new starts. */
  cancel(): void {
    this.cancelled = true;
    this.central?.cancel();
    this.stealing?.cancel();
  }

  /** Moves the spans no frame has carried yet into `columns`. */
  drainSpans(columns: SpanColumns): void {
    this.spans.copyTo(this.recent);
    this.spans.drainInto(columns, this.options.name, this.options.jobId, this.nodeId);
  }

  /** Adds the latest spans frames carried to `columns` (a snapshot's), taking nothing away. */
  copyRecentSpans(columns: SpanColumns): void {
    this.recent.copyInto(columns, this.options.name, this.options.jobId, this.nodeId);
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
      } else {
        this.backend = this.options.backend();
        this.shift = this.startedAt - this.backend.now();
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
      await this.stealing?.close();
      await this.backend?.close();
    }
  }

  /** Session time now: the central run's backend clock, shifted; else the session's own. */
  private clock(): number {
    if (this.backend !== null) return this.backend.now() + this.shift;
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
    const tapped = new TappedBackend(this.backend!, {
      started: (d) => tracker.started(d.splitId),
      ended: (e) => {
        if (e.splitId < 0 || e.splitId >= graph.nodeCount) return;
        tracker.ended(e.splitId, e.outcome);
        this.spans.push({
          graph: i,
          node: e.splitId,
          workerId: e.workerId,
          startNanos: e.startNanos + this.shift,
          endNanos: e.endNanos + this.shift,
          outcome: e.outcome,
        });
      },
    });
    // The executor keeps no spans of its own here: the tap already sent them to the frames.
    this.central = startGraphCentral(tapped, graph, {
      policy: plan.policy,
      errorMode: plan.errorMode,
      maxSpans: 0,
    });
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
