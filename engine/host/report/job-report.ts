/**
 * The end of a headless run: its report assembled from what the executor and the collector hold
 * (report.ts says what each figure is), and its Chrome trace, built the same way for job and
 * graph workloads.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import type { Workload } from '../../../shared/workload.ts';
import { chargedShares, type EngineEvent } from '../../../shared/protocol.ts';
import type { Executor } from '../../runtime/executor/executor.ts';
import type { TrinoController } from '../../runtime/workload/trino-controller.ts';
import { toChromeTrace, type ChromeTrace } from '../trace/chrome-trace.ts';
import type { TraceWindow } from '../trace/trace-window.ts';
import { failuresField, type RunCollector } from './collector.ts';
import { ms3, round3, type RunReport } from './report.ts';
import type { TrinoStats } from './trino-stats.ts';

/** What one run of job classes (and Trino specs) left behind, for its report. */
export interface JobRunEnd {
  readonly workload: Workload;
  readonly backend: RunReport['backend'];
  readonly threadsClock: boolean;
  readonly seed: number;
  readonly config: EngineConfig;
  /** Workload time per backend time (threads `timeScale`; 1 on the simulator). */
  readonly scale: number;
  readonly origin: number;
  /** Backend time the run was cut at with jobs still live; null when every job ended. */
  readonly stoppedAt: number | null;
  readonly executor: Executor;
  readonly collector: RunCollector;
  /** Jobs submitted by class name. */
  readonly submitted: ReadonlyMap<string, number>;
  readonly trino: TrinoController | null;
  readonly trinoStats: TrinoStats | null;
}

export function jobReport(run: JobRunEnd): RunReport {
  const { executor, collector, scale, origin, stoppedAt, config } = run;
  const endNanos = stoppedAt ?? Math.max(collector.lastEndNanos, origin);
  const makespan = (endNanos - origin) / scale;
  const c = executor.counters;
  const runaway = executor.runawaySplits();
  const levelRows = executor.levels();
  const shares = chargedShares(levelRows);
  const submitted = new Map<string, number>(run.submitted);
  for (const s of run.trino?.stats() ?? []) submitted.set(s.name, s.created);
  const report: RunReport = {
    workload: run.workload.name,
    backend: run.backend,
    seed: run.seed,
    config,
    ...(run.threadsClock ? { timeScale: scale } : {}),
    makespanMs: ms3(makespan),
    stoppedAtMs: stoppedAt === null ? null : ms3((stoppedAt - origin) / scale),
    classes: Object.fromEntries(
      [...collector.classes].map(([name, s]) => [
        name,
        s.toReport(submitted.get(name) ?? 0, scale),
      ]),
    ),
    levels: collector.levelNanos
      .map((nanos, level) => ({
        level,
        label: levelRows[level]?.label ?? `L${level}`,
        scheduledMs: ms3(nanos / scale),
        chargedMs: ms3((levelRows[level]?.chargedNanos ?? 0) / scale),
        share: shares[level] ?? 0,
        selections: levelRows[level]?.selections ?? 0,
        maxDepth: collector.maxDepth[level] ?? 0,
        ...(levelRows[level]?.agingBoosts === undefined
          ? {}
          : { agingBoosts: levelRows[level].agingBoosts }),
      }))
      .filter((l, i) => i < Math.max(1, levelRows.length)),
    workers: {
      count: config.workers,
      utilization: makespan > 0 ? round3(c.busyNanos / scale / (config.workers * makespan)) : 0,
    },
    fairness: {
      jain: collector.jain.value,
      tenants: collector.tenantJain.count,
      tenantJain: collector.tenantJain.value,
      ...weightsOf(executor),
    },
    counters: {
      quanta: c.quanta,
      overrunMs: ms3(c.overrunNanos / scale),
      busyMs: ms3(c.busyNanos / scale),
      ...(c.cpuNanos === undefined ? {} : { cpuMs: ms3(c.cpuNanos / scale) }),
      runawayQuanta: c.runawayQuanta ?? 0,
      killedQuanta: c.killedQuanta ?? 0,
      stuckSplitIds: runaway.map((r) => r.splitId),
      // Trino's getStuckSplitTaskIds: the tasks of those splits, each once.
      stuckTaskIds: [...new Set(runaway.map((r) => r.taskId))],
      // With a trace, what the trace lacks: the ring's losses and the window's (docs/metrics.md).
      spansDropped: collector.trace?.droppedSpans ?? collector.spansDropped,
      splitsRejected: c.rejectedSplits,
    },
    ...failuresField(collector.failures),
    executorStats: collector.executorStats.read(scale, endNanos),
  };
  // A declared class's jobs all have its priority: the report says it whether or not one ended
  // (from its first ended job, a class with none said `-` beside siblings of the same priority).
  for (const c of run.workload.classes ?? []) {
    const cls = report.classes[c.name];
    if (cls !== undefined) cls.basePriority = c.basePriority;
  }
  for (const [name, targets] of executor.taskTargets()) {
    const cls = report.classes[name];
    if (cls !== undefined) cls.targetConcurrency = targets;
  }
  const trinoDoc = run.workload.trino;
  if (run.trinoStats !== null && trinoDoc) {
    report.trino = run.trinoStats.toJson(
      run.trino?.runningTasks().length ?? 0,
      Object.fromEntries(trinoDoc.specs.map((s) => [s.name, s.splitsPerTask])),
    );
  }
  return report;
}

/**
 * A run's Chrome trace from its trace window (null without one). A job run adds the executor's
 * events as markers and the run's settings as metadata. `originNanos`, the run's start on the
 * backend's clock, is the trace's ts 0, as it is the report's time 0: a job arriving at 2 s runs
 * at 2 s in both (the earliest event was 0, so the slices ran before their jobs arrived).
 */
export function runTrace(
  window: TraceWindow | null,
  title: string,
  workers: number,
  originNanos: number,
  extra: {
    markers: EngineEvent[];
    droppedMarkers?: number;
    rowLabel?: string;
    metadata: Record<string, unknown>;
  } | null = null,
): ChromeTrace | null {
  const snapshot = window?.snapshot();
  if (!snapshot) return null;
  return toChromeTrace({ workers, ...snapshot, ...(extra ?? {}), title, originNanos });
}

/** The tenant weights the run ended with, when any is not 1. */
function weightsOf(executor: Executor): { tenantWeights?: Record<string, number> } {
  const weights = executor.tenantWeights;
  return Object.keys(weights).length === 0 ? {} : { tenantWeights: weights };
}
