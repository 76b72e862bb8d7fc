/**
 * Builds telemetry frames (docs/design.md §6) from an executor: each frame carries what changed since
 * the previous one (spans, events) and the state now (levels, workers, counters, percentiles,
 * fairness, utilization, config). Spans and events come from the executor's bounded rings; what
 * a ring overwrote before a frame could carry it is counted (`spansDropped`, `eventsDropped`),
 * never hidden.
 */
import { ExecutorStatsView } from '../report/executor-stats.ts';
import {
  FRAME_MAX_TENANTS,
  FRAME_MAX_WARNINGS,
  type Alarm,
  type Frame,
  type FrameSamples,
  type RunawaySplit,
  type SpanColumns,
} from '../../../shared/protocol.ts';
import { DEFAULT_STARVATION_MS, type Executor } from '../../runtime/executor/index.ts';
import type { LatencyStats } from './stats.ts';
import { PopulationCache, type PopulationFigures } from './population-figures.ts';
import { formatMs } from '../../../shared/lib/format.ts';
import type { Steps, WorkBudget } from '../../core/graph/steps.ts';

export interface AlarmThresholds {
  /** Alarm when the most urgent band's (p0-19) p95 wait exceeds this (ms). */
  readonly urgentP95WaitMs?: number;
  /** Alarm when any split has waited longer than this (ms). */
  readonly starvationMs?: number;
}

export interface FrameBuilderOptions {
  readonly alarms?: AlarmThresholds;
  /** Most spans one frame carries (the rest count as dropped). */
  readonly maxSpansPerFrame?: number;
  readonly maxJobRows?: number;
  /** Sim sessions: the live loop's pace now (`Frame.speed`). */
  readonly speed?: () => number | 'max';
}

export class FrameBuilder {
  private seq = 0;
  private spanCursor = 0;
  private eventCursor = 0;
  private lastTime: number;
  private dropped = 0;
  private eventsDropped = 0;
  private lastUtilization = 0;
  private readonly maxSpans: number;
  private readonly maxJobs: number;
  private readonly population = new PopulationCache();

  constructor(
    private readonly executor: Executor,
    private readonly stats: LatencyStats,
    options: FrameBuilderOptions = {},
  ) {
    this.maxSpans = options.maxSpansPerFrame ?? 20_000;
    this.maxJobs = options.maxJobRows ?? 200;
    this.speed = options.speed ?? null;
    this.lastTime = executor.now();
    this.executorStats = new ExecutorStatsView(executor);
    this.urgentMs = options.alarms?.urgentP95WaitMs ?? 1000;
    this.starvationMs = options.alarms?.starvationMs ?? DEFAULT_STARVATION_MS;
  }

  /** Trino's executor statistics (report/executor-stats.ts), as a report has them. */
  private readonly executorStats: ExecutorStatsView;
  private readonly speed: (() => number | 'max') | null;
  private readonly urgentMs: number;
  /** The starvation alarm's bound, which the `starving` warning uses too (ms). */
  readonly starvationMs: number;

  private alarms(wait: Frame['wait'], oldestWaitMs: number): Alarm[] {
    const out: Alarm[] = [];
    const urgent = wait.byBand['p0-19'];
    if (urgent !== undefined && urgent.p95 > this.urgentMs) {
      out.push({
        kind: 'urgent-wait',
        message: `p0-19 p95 wait ${formatMs(urgent.p95)} exceeds ${formatMs(this.urgentMs)}`,
      });
    }
    if (oldestWaitMs > this.starvationMs) {
      out.push({
        kind: 'starvation',
        message: `a split has waited ${formatMs(oldestWaitMs)} (threshold ${formatMs(this.starvationMs)})`,
      });
    }
    return out;
  }

  get spansDropped(): number {
    return this.dropped;
  }

  /** The next frame: state now plus the spans and events since the previous one. */
  next(): Frame {
    return this.build(true);
  }

  /**
   * State now without consuming anything (no spans, no events, same seq), for snapshots: a new
   * client must not take spans away from the frames other clients are about to get.
   */
  peek(): Frame {
    return this.build(false);
  }

  private build(consume: boolean): Frame {
    const ex = this.executor;
    const now = ex.now();
    const read = consume
      ? ex.spans.read(this.spanCursor, this.maxSpans)
      : ex.spans.read(ex.spans.total, 0);
    const events = consume ? ex.events.since(this.eventCursor) : [];
    const workers = ex.workers();
    const utilization = consume
      ? this.utilization(read.columns, workers, now)
      : this.lastUtilization;
    if (consume) {
      this.spanCursor = read.cursor;
      this.dropped += read.dropped;
      this.eventsDropped += ex.events.droppedSince(this.eventCursor);
      this.eventCursor = ex.events.total;
      this.lastTime = now;
      this.lastUtilization = utilization;
      this.seq++;
    }
    const figures = this.population.get(
      {
        policy: ex.policyName,
        config: ex.config,
        statsSince: this.stats.sinceNanos(),
        weightsVersion: ex.tenantWeightsVersion,
      },
      consume,
      (budget) => this.populationSteps(budget),
    );
    const runaway = ex.runawaySplits();
    const alarms = this.alarms(figures.wait, figures.oldestWaitMs);
    if (runaway.length > 0) alarms.push(stuckAlarm(runaway, ex.config.runawayAfterMs));
    return {
      type: 'frame',
      seq: this.seq,
      timeNanos: now,
      backend: ex.backend.kind,
      policy: ex.policyName,
      paused: ex.paused,
      levels: ex.levels(),
      workers,
      counters: ex.counters,
      latency: this.stats.latency.read(),
      statsSinceNanos: this.stats.sinceNanos(),
      wait: figures.wait,
      fairness: figures.fairness,
      // Carried over a switch away from `fair` until the next pass finishes: not shown.
      ...(figures.fairGroups === undefined || ex.policyName !== 'fair'
        ? {}
        : { fairGroups: figures.fairGroups }),
      ...this.tenants(),
      tenantWeightsVersion: ex.tenantWeightsVersion,
      utilization,
      spans: read.columns,
      spansDropped: this.dropped,
      config: ex.config,
      events,
      eventsDropped: this.eventsDropped,
      jobs: ex.jobs(this.maxJobs),
      alarms,
      queued: figures.queued,
      oldestWaitMs: figures.oldestWaitMs,
      figuresAtNanos: figures.figuresAtNanos,
      runawaySplits: runaway,
      executorStats: this.executorStats.read(),
      ...(ex.config.initialSplitConcurrency === null
        ? {}
        : { taskConcurrency: ex.taskConcurrency() }),
      warnings: figures.warnings,
      warningsMore: figures.warningsMore,
      ...(this.speed === null ? {} : { speed: this.speed() }),
      ...(consume ? { samples: this.sendSamples(now) } : {}),
    };
  }

  /**
   * The figures that pass over every live run, in steps of `budget` over frames, or in one piece
   * without (population-figures.ts).
   */
  private *populationSteps(budget?: WorkBudget): Steps<PopulationFigures> {
    const ex = this.executor;
    const pass = ex.populationPass(budget);
    const warnings = yield* pass.warnings(this.starvationMs, FRAME_MAX_WARNINGS);
    const fairness = yield* pass.jain();
    // Under `fair` only: one pass over the live groups, which other policies do not need.
    const fairGroups = ex.policyName === 'fair' ? yield* pass.fairGroups() : undefined;
    // The waits in progress last, in one piece (population-pass.ts says why), in one walk.
    const name = (cls: number) => ex.spans.className(cls);
    const waits = this.stats.wait.openReader();
    const held = this.stats.queued.openReader();
    let oldestWaitNanos = 0;
    const at = ex.now();
    pass.openWaits(
      (cls, nanos, priority) => {
        if (nanos > oldestWaitNanos) oldestWaitNanos = nanos;
        waits.visit(name(cls), priority, nanos);
      },
      (cls, nanos, priority) => held.visit(name(cls), priority, nanos),
    );
    return {
      wait: waits.finish(),
      queued: held.finish(),
      oldestWaitMs: oldestWaitNanos / 1e6,
      figuresAtNanos: at,
      fairness,
      ...(fairGroups === undefined ? {} : { fairGroups }),
      warnings: warnings.warnings,
      warningsMore: warnings.more,
    };
  }

  /** The samples since the last frame, which this frame carries: the tables may turn a slice. */
  private sendSamples(now: number): FrameSamples {
    const samples = {
      latency: this.stats.latency.pending.drain(),
      wait: this.stats.wait.pending.drain(),
    };
    this.stats.frameSent(now);
    return samples;
  }

  /** The tenants, when the executor holds any (most workloads have none: nothing is added). */
  private tenants(): Pick<Frame, 'tenants' | 'tenantsMore'> {
    const ex = this.executor;
    const count = ex.tenantCount;
    if (count === 0) return {};
    const tenants = ex.tenants(FRAME_MAX_TENANTS);
    return { tenants, tenantsMore: count - tenants.length };
  }

  /**
   * Busy time inside (lastTime, now] over workers × interval: finished spans plus running quanta,
   * each at most `Backend.runningBound` from its start (on the cluster while Redis is away, what
   * it was granted: its worker read busy for the whole outage before).
   */
  private utilization(spans: SpanColumns, workers: Frame['workers'], now: number): number {
    const from = this.lastTime;
    const backend = this.executor.backend;
    const interval = now - from;
    const count = backend.workerCount;
    if (interval <= 0 || count === 0) return 0;
    let busy = 0;
    for (let i = 0; i < spans.count; i++) {
      busy += Math.max(0, Math.min(spans.end[i]!, now) - Math.max(spans.start[i]!, from));
    }
    for (const w of workers) {
      if (w.sinceNanos === null) continue;
      const bound = backend.runningBound?.(w.id) ?? Infinity;
      busy += Math.max(0, Math.min(now, w.sinceNanos + bound) - Math.max(w.sinceNanos, from));
    }
    return Math.min(1, busy / (interval * count));
  }
}

/** The `stuck-worker` alarm: runaway splits (executor-rows.ts), the first few named. */
function stuckAlarm(runaway: readonly RunawaySplit[], afterMs: number): Alarm {
  const named = runaway
    .slice(0, 4)
    .map(
      (r) =>
        `worker ${r.workerId} (split ${r.splitId}, job ${r.jobId}, ${Math.round(r.overrunMs)} ms)`,
    )
    .join(', ');
  const more = runaway.length > 4 ? ` and ${runaway.length - 4} more` : '';
  return {
    kind: 'stuck-worker',
    message: `${named}${more} overran the quantum by more than ${afterMs} ms`,
  };
}
