/**
 * Runs one workload on one backend and returns its report (and trace): the headless path used by
 * the CLI (`schedlab run`, `schedlab compare`), the app's Compare view and the scenario tests.
 * On `sim` the virtual clock is driven in 100 ms steps as fast as the CPU allows; on `threads`
 * real workers run in real time: the stop and each Trino status line are backend timers at their
 * own times (a 50 ms poll would be 5 s of workload time at timeScale 0.01), and the span ring is
 * read on a 50 ms wall-clock poll.
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import type { Workload } from '../../../shared/workload.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import { chargedShares, type CompareSeries } from '../../../shared/protocol.ts';
import type { BucketCounts } from '../../../shared/lib/histogram.ts';
import { RunSeries } from './run-series.ts';
import type { Backend } from '../../runtime/backend.ts';
import { SimBackend } from '../../runtime/sim/sim-backend.ts';
import { ThreadsBackend } from '../../runtime/threads/threads-backend.ts';
import { ClassDriver } from '../../runtime/workload/class-driver.ts';
import { TrinoController } from '../../runtime/workload/trino-controller.ts';
import { toChromeTrace, type ChromeTrace } from '../trace/chrome-trace.ts';
import { RunCollector } from './collector.ts';
import { ms3, round3, type RunReport } from './report.ts';
import { levelFunction, resolveConfig, type BackendKind } from './resolve-config.ts';
import { TrinoStats } from './trino-stats.ts';
import type { GraphProgress } from './graph-progress.ts';
import { graphDocuments, graphReport, runGraphs } from './run-graph.ts';
import { statusLine } from './trino-status.ts';
import { runOnThreads } from './threads-loop.ts';
import { Executor } from '../../runtime/executor/executor.ts';
import { startClusterRun } from './cluster-run.ts';
import { SchedLabError } from '../../../shared/errors.ts';

export interface RunProgress {
  elapsedMs: number;
  durationMs: number | null;
  jobsEnded: number;
  jobsLive: number;
  quanta: number;
  /** Graph workloads: nodes finished of all the workload's graphs (jobs are whole graphs). */
  nodes?: { done: number; total: number };
}

export interface RunOptions {
  /** `cluster` runs in real time like `threads`, on `schedlab worker` nodes (cluster-run.ts). */
  backend?: BackendKind | 'cluster';
  /** `cluster`: the Redis the worker nodes use. */
  redis?: string;
  /** `cluster`: nodes joining and gone, Redis lost and back (one line each). */
  log?: (line: string) => void;
  /** Overrides on top of the workload's own config (validated; errors name the field). */
  config?: EngineConfigPatch;
  seed?: number;
  /** Stops the run here (ms of workload time), overriding the workload's own duration. */
  durationMs?: number;
  /** Keep the last `traceCapacity` quanta for a Chrome trace. */
  trace?: boolean;
  traceCapacity?: number;
  onProgress?: (p: RunProgress) => void;
  /** Keep the levels over time and each class's latency histogram (the app's Compare view). */
  series?: boolean;
}

export interface RunResult {
  report: RunReport;
  trace: ChromeTrace | null;
  wallMs: number;
  series?: CompareSeries;
  latencyBuckets?: Record<string, BucketCounts>;
}

const MS = 1_000_000;
const SIM_STEP = 100 * MS;
/** A runaway guard: no workload of ours needs more than a simulated week. */
const SIM_LIMIT = 7 * 86_400_000 * MS;

export async function runWorkload(
  workload: Workload,
  options: RunOptions = {},
): Promise<RunResult> {
  const backendKind = options.backend ?? 'sim';
  const clock: BackendKind = backendKind === 'cluster' ? 'threads' : backendKind;
  let config = resolveConfig(workload, clock, options.config ?? {});
  const seed = options.seed ?? workload.seed;
  const scale = clock === 'threads' ? workload.timeScale : 1;
  const graphs = workload.graph === undefined ? null : graphDocuments(workload);
  const wallStart = performance.now();
  let backend: Backend;
  if (backendKind === 'cluster' && graphs?.some((d) => d.executor === 'stealing')) {
    // Work stealing runs its own local threads: it would never reach a node.
    throw new SchedLabError(
      'INVALID_WORKLOAD',
      'graph.executor stealing runs on the threads backend only, not on cluster nodes',
      'graph.executor',
    );
  }
  if (backendKind === 'cluster') {
    const explicit = options.config?.workers;
    const log = options.log ?? (() => {});
    ({ backend, config } = await startClusterRun(options.redis, config, explicit, seed, log));
  } else {
    backend =
      backendKind === 'sim'
        ? new SimBackend({ workers: config.workers, seed })
        : new ThreadsBackend({ workers: config.workers, seed });
  }
  // Time starts when every worker is up (threads spawn and calibrate their kernels first).
  if (backend instanceof ThreadsBackend) await backend.ready();
  if (graphs !== null) {
    try {
      const traceCapacity = options.trace === true ? (options.traceCapacity ?? 100_000) : null;
      const origin = backend.now();
      const onProgress = options.onProgress;
      const progress =
        onProgress &&
        ((p: GraphProgress) =>
          onProgress({
            elapsedMs: (backend.now() - origin) / MS,
            durationMs: null,
            jobsEnded: p.graphsDone,
            jobsLive: p.nodesDone < p.nodes ? 1 : 0,
            quanta: p.dispatches,
            nodes: { done: p.nodesDone, total: p.nodes },
          }));
      const g = await runGraphs(workload, graphs, backend, config, traceCapacity, progress);
      const report = graphReport(workload, backendKind, seed, config, g);
      const snapshot = g.trace?.snapshot();
      const title = `schedlab ${workload.name} (${backendKind})`;
      const trace = snapshot
        ? toChromeTrace({ workers: config.workers, ...snapshot, title })
        : null;
      return { report, trace, wallMs: performance.now() - wallStart };
    } finally {
      await backend.close();
    }
  }
  const executor = new Executor(backend, config, { spanCapacity: 1 << 17 });
  const origin = backend.now();
  const durationMs = options.durationMs ?? workload.durationMs ?? null;
  const stopAt = durationMs === null ? Infinity : origin + Math.round(durationMs * MS * scale);
  const rng = createRng(seed);
  const classNames = [
    ...(workload.classes ?? []).map((c) => c.name),
    ...(workload.trino?.specs ?? []).map((s) => s.name),
  ];
  const collector = new RunCollector(
    executor,
    classNames,
    origin,
    options.trace === true ? (options.traceCapacity ?? 100_000) : null,
  );
  // Levels by the executor's own (scaled) thresholds, from backend time.
  const levelOf = levelFunction(config);
  const trinoStats = workload.trino ? new TrinoStats(levelOf, scale) : null;

  const classes = new ClassDriver(executor, workload.classes ?? [], rng, {
    originNanos: origin,
    scale,
    untilNanos: stopAt - origin,
  });
  const trino = workload.trino
    ? new TrinoController(executor, workload.trino, rng, {
        originNanos: origin,
        scale,
        onTaskDone: (t) => {
          trinoStats?.taskDone({
            spec: t.spec.name,
            splits: t.completed,
            requiredNanos: t.requiredNanos,
            scheduledNanos: t.scheduledNanos,
            waitNanos: t.waitNanos,
          });
        },
      })
    : null;

  let nextStatus = origin;
  const statusPeriod = Math.max(1, Math.round(1000 * MS * scale));
  /** Status lines due by `now` (on threads a timer calls this at each line's own time). */
  const addStatusLines = (now: number) => {
    if (trino === null || trinoStats === null) return;
    while (now >= nextStatus) {
      trinoStats.addStatus(
        statusLine(executor, trino, collector, levelOf, (nextStatus - origin) / scale),
      );
      nextStatus += statusPeriod;
    }
  };
  const series = options.series === true ? new RunSeries(origin, scale) : null;
  const observe = () => {
    collector.poll();
    collector.sample();
    series?.add(executor.now(), executor.levels());
    const now = executor.now();
    if (backendKind === 'sim') addStatusLines(now);
    if (options.onProgress) {
      const c = executor.counters;
      options.onProgress({
        elapsedMs: (now - origin) / scale / MS,
        durationMs,
        jobsEnded: c.succeeded + c.failed + c.cancelled + c.rejected,
        jobsLive: c.live,
        quanta: c.quanta,
      });
    }
  };
  const done = () => classes.finished && trino === null && executor.counters.live === 0;

  let stoppedAt: number | null = null;
  /** threads: the backend time the loop ended at (the stop timer's, not after the last reads). */
  let endedAt: number | null = null;
  try {
    classes.start();
    trino?.start();
    if (backend instanceof SimBackend) {
      let t = origin;
      for (;;) {
        t = Math.min(t + SIM_STEP, stopAt);
        backend.runUntil(t);
        observe();
        if (t >= stopAt || done()) break;
        if (
          t - origin > SIM_LIMIT ||
          (backend.pendingEvents === 0 && classes.finished && trino === null)
        ) {
          // Live jobs and nothing left to happen: an engine bug, not bad input.
          throw new Error(`the run made no progress after ${ms3(t - origin)} ms of simulated time`);
        }
      }
    } else {
      endedAt = await runOnThreads(backend, stopAt, trino === null ? null : statusPeriod, {
        observe,
        done,
        status: () => addStatusLines(executor.now()),
      });
    }
    if (executor.counters.live > 0) stoppedAt = endedAt ?? executor.now();
  } catch (e) {
    // Never leave worker threads behind (they would keep the process alive).
    await executor.close().catch(() => {});
    throw e;
  } finally {
    classes.stop();
    trino?.stop();
    collector.close();
  }

  const endNanos = stoppedAt ?? Math.max(collector.lastEndNanos, origin);
  const makespan = (endNanos - origin) / scale;
  const c = executor.counters;
  const stuck = executor.runawaySplits().map((r) => r.splitId);
  const levelRows = executor.levels();
  const shares = chargedShares(levelRows);
  const submitted = new Map<string, number>(classes.submitted);
  for (const s of trino?.stats() ?? []) submitted.set(s.name, s.created);
  const report: RunReport = {
    workload: workload.name,
    backend: backendKind,
    seed,
    config,
    ...(clock === 'threads' ? { timeScale: scale } : {}),
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
      }))
      .filter((l, i) => i < Math.max(1, levelRows.length)),
    workers: {
      count: config.workers,
      utilization: makespan > 0 ? round3(c.busyNanos / scale / (config.workers * makespan)) : 0,
    },
    fairness: { jain: collector.jain.value },
    counters: {
      quanta: c.quanta,
      overrunMs: ms3(c.overrunNanos / scale),
      busyMs: ms3(c.busyNanos / scale),
      ...(c.cpuNanos === undefined ? {} : { cpuMs: ms3(c.cpuNanos / scale) }),
      runawayQuanta: c.runawayQuanta ?? 0,
      killedQuanta: c.killedQuanta ?? 0,
      stuckSplitIds: stuck,
      spansDropped: collector.spansDropped,
      splitsRejected: c.rejectedSplits,
    },
  };
  if (trinoStats !== null && workload.trino) {
    report.trino = trinoStats.toJson(
      trino?.runningTasks().length ?? 0,
      Object.fromEntries(workload.trino.specs.map((s) => [s.name, s.splitsPerTask])),
    );
  }
  const snapshot = collector.trace?.snapshot();
  const trace = snapshot
    ? toChromeTrace({
        workers: config.workers,
        ...snapshot,
        markers: executor.events.since(0),
        title: `schedlab ${workload.name} (${backendKind})`,
        metadata: {
          workload: workload.name,
          backend: backendKind,
          seed,
          policy: config.policy,
          config,
        },
      })
    : null;
  await executor.close();
  const extra =
    series === null
      ? {}
      : {
          series: series.toWire(),
          latencyBuckets: Object.fromEntries(
            [...collector.classes].map(([name, s]) => [name, s.latency.toBuckets()]),
          ),
        };
  return { report, trace, wallMs: performance.now() - wallStart, ...extra };
}
