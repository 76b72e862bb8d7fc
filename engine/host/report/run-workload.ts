/**
 * Runs one workload on one backend and returns its report (and trace): the headless path used by
 * the CLI (`schedlab run`, `schedlab compare`), the app's Compare view and the scenario tests.
 * On `sim` the virtual clock is driven in 100 ms steps as fast as the CPU allows; on `threads`
 * real workers run in real time: the stop and each Trino status line are backend timers at their
 * own times (a 50 ms poll would be 5 s of workload time at timeScale 0.01), and the span ring is
 * read on a 50 ms wall-clock poll.
 */
import type { EngineConfig, EngineConfigPatch } from '../../../shared/config.ts';
import type { GraphDocument } from '../../../shared/graph.ts';
import type { Workload } from '../../../shared/workload.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import type { CompareSeries } from '../../../shared/protocol.ts';
import type { BucketCounts } from '../../../shared/lib/histogram.ts';
import { RunSeries } from './run-series.ts';
import type { Backend } from '../../runtime/backend.ts';
import { SimBackend } from '../../runtime/sim/sim-backend.ts';
import { ThreadsBackend } from '../../runtime/threads/threads-backend.ts';
import { ClassDriver } from '../../runtime/workload/class-driver.ts';
import { TrinoController } from '../../runtime/workload/trino-controller.ts';
import type { ChromeTrace } from '../trace/chrome-trace.ts';
import { RunCollector } from './collector.ts';
import { jobReport, runTrace } from './job-report.ts';
import { ms3, type RunReport } from './report.ts';
import { levelFunction, resolveConfig, type BackendKind } from './resolve-config.ts';
import { TrinoStats } from './trino-stats.ts';
import type { GraphProgress } from './graph-progress.ts';
import { EventLoopTurns } from './event-loop-turns.ts';
import { graphDocuments, graphReport, runGraphs } from './run-graph.ts';
import { statusLine } from './trino-status.ts';
import { runOnThreads } from './threads-loop.ts';
import { Executor } from '../../runtime/executor/executor.ts';
import type { ExecutorOptions } from '../../runtime/executor/executor-options.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { loadClusterModule } from '../../runtime/cluster/optional-packages.ts';
import type { ClusterBackend } from '../../runtime/cluster/cluster-backend.ts';

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
  /** A cluster run's backend, once it is up (the CLI's time limit reads its Redis outages). */
  onClusterBackend?: (backend: ClusterBackend) => void;
  /**
   * `cluster`: keep one quantum queued behind each busy node worker's running one (the executor's
   * `pipeline`), so a node worker goes on to its next quantum without a round trip through Redis
   * and this process. Default true on `cluster`; other backends never pipeline here.
   */
  pipeline?: boolean;
  /** Overrides on top of the workload's own config (validated; errors name the field). */
  config?: EngineConfigPatch;
  seed?: number;
  /** Stops the run here (ms of workload time), overriding the workload's own duration. */
  durationMs?: number;
  /** Keep the last `traceCapacity` quanta for a Chrome trace. */
  trace?: boolean;
  traceCapacity?: number;
  onProgress?: (p: RunProgress) => void;
  /**
   * Asked between the simulator's steps (its clock runs in one synchronous loop, where no timer
   * fires), once the graph documents are checked and between their compile steps: an error
   * returned ends the run with it (the CLI's `--time-limit` in wall time).
   */
  pastLimit?: () => Error | null;
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

/** What every part of one run shares, once its backend is up. */
interface Run {
  readonly workload: Workload;
  readonly options: RunOptions;
  readonly backendKind: BackendKind | 'cluster';
  /** `cluster` keeps time like `threads`. */
  readonly clock: BackendKind;
  readonly config: EngineConfig;
  readonly seed: number;
  readonly backend: Backend;
  readonly wallStart: number;
}

export async function runWorkload(
  workload: Workload,
  options: RunOptions = {},
): Promise<RunResult> {
  const backendKind = options.backend ?? 'sim';
  const clock: BackendKind = backendKind === 'cluster' ? 'threads' : backendKind;
  const resolved = resolveConfig(workload, clock, options.config ?? {});
  const seed = options.seed ?? workload.seed;
  const graphs = workload.graph === undefined ? null : graphDocuments(workload);
  const late = options.pastLimit?.();
  if (late) throw late;
  const wallStart = performance.now();
  const { backend, config } = await openBackend(backendKind, resolved, options, seed, graphs);
  // The sim holds the event loop while it runs: the time limit is looked at inside it.
  if (backend instanceof SimBackend && options.pastLimit !== undefined) {
    backend.watch(options.pastLimit);
  }
  const run: Run = { workload, options, backendKind, clock, config, seed, backend, wallStart };
  return graphs === null ? runJobs(run) : runGraphWorkload(run, graphs);
}

/** The run's backend, every worker up (threads spawn and calibrate their kernels first). */
async function openBackend(
  backendKind: BackendKind | 'cluster',
  resolved: EngineConfig,
  options: RunOptions,
  seed: number,
  graphs: readonly GraphDocument[] | null,
): Promise<{ backend: Backend; config: EngineConfig }> {
  let config = resolved;
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
    // Loaded only for a cluster run: BullMQ and ioredis are optional packages
    // (optional-packages.ts) and no start-up cost of the others.
    const { startClusterRun } = await loadClusterModule(() => import('./cluster-run.ts'));
    const started = await startClusterRun(options.redis, config, explicit, seed, log);
    options.onClusterBackend?.(started.backend);
    ({ backend, config } = started);
  } else {
    backend =
      backendKind === 'sim'
        ? new SimBackend({ workers: config.workers, seed })
        : new ThreadsBackend({ workers: config.workers, seed });
  }
  // Time starts when every worker is up.
  if (backend instanceof ThreadsBackend) await backend.ready();
  return { backend, config };
}

async function runGraphWorkload(run: Run, graphs: readonly GraphDocument[]): Promise<RunResult> {
  const { workload, options, backend, config } = run;
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
    const g = await runGraphs(workload, graphs, backend, config, traceCapacity, {
      onProgress: progress,
      pastLimit: options.pastLimit,
    });
    const seeds = graphs.flatMap((d) =>
      'seed' in d && typeof d.seed === 'number' ? [d.seed] : [],
    );
    const report = {
      ...graphReport(workload, run.backendKind, run.seed, config, g),
      ...(seeds.length === 0 ? {} : { graphSeeds: seeds }),
    };
    // What ran, as a job run's trace says it: the graph policy where there is one (central).
    const first = g.dags[0];
    const trace = runTrace(g.trace, title(run), config.workers, origin, {
      markers: [],
      rowLabel: 'graph', // the report's row for a graph run
      metadata: {
        workload: workload.name,
        backend: run.backendKind,
        seed: run.seed,
        workers: config.workers,
        ...(first === undefined ? {} : { executor: first.executor }),
        ...(first?.policy === undefined ? {} : { policy: first.policy }),
      },
    });
    return { report, trace, wallMs: performance.now() - run.wallStart };
  } finally {
    await backend.close();
  }
}

function title(run: Run): string {
  return `schedlab ${run.workload.name} (${run.backendKind})`;
}

/** Job classes and Trino specs: drivers submit, the clock is driven, the collector watches. */
async function runJobs(run: Run): Promise<RunResult> {
  const { workload, options, backendKind, config, seed, backend } = run;
  const scale = run.clock === 'threads' ? workload.timeScale : 1;
  const executor = new Executor(backend, config, runExecutorOptions(backendKind, options.pipeline));
  if (workload.tenantWeights !== undefined) executor.setTenantWeights(workload.tenantWeights);
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
    // Read once more after a late stop timer: the run ended at its duration all the same.
    const now = Math.min(executor.now(), stopAt);
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
      const noMoreWork = () => backend.pendingEvents === 0 && classes.finished && trino === null;
      const pastLimit = options.pastLimit ?? (() => null);
      await driveSim(backend, origin, stopAt, { observe, done, noMoreWork, pastLimit });
    } else {
      executor.stopDispatchAt(stopAt);
      endedAt = await runOnThreads(backend, stopAt, trino === null ? null : statusPeriod, {
        observe,
        done,
        status: addStatusLines,
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

  const report = jobReport({
    workload,
    backend: backendKind,
    threadsClock: run.clock === 'threads',
    seed,
    config,
    scale,
    origin,
    stoppedAt,
    executor,
    collector,
    submitted: classes.submitted,
    trino,
    trinoStats,
  });
  const trace = runTrace(collector.trace, title(run), config.workers, origin, {
    markers: executor.events.since(0),
    droppedMarkers: executor.events.dropped,
    metadata: {
      workload: workload.name,
      backend: backendKind,
      seed,
      policy: config.policy,
      config,
    },
  });
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
  return { report, trace, wallMs: performance.now() - run.wallStart, ...extra };
}

/**
 * The executor options of a run on `backendKind` (bench/cluster.ts measures the same): on
 * `cluster` the pipeline unless turned off (`RunOptions.pipeline`), elsewhere none.
 */
export function runExecutorOptions(
  backendKind: BackendKind | 'cluster',
  pipeline?: boolean,
): ExecutorOptions {
  return { spanCapacity: 1 << 17, pipeline: backendKind === 'cluster' && pipeline !== false };
}

/** The simulator's clock in 100 ms steps until the stop, or until every job has ended. */

async function driveSim(
  backend: SimBackend,
  origin: number,
  stopAt: number,
  hooks: {
    observe: () => void;
    done: () => boolean;
    noMoreWork: () => boolean;
    pastLimit: () => Error | null;
  },
): Promise<void> {
  let t = origin;
  const turns = new EventLoopTurns();
  for (;;) {
    t = Math.min(t + SIM_STEP, stopAt);
    backend.runUntil(t); // the time limit is looked at inside it too (`SimBackend.watch`)
    hooks.observe();
    if (t >= stopAt || hooks.done()) break;
    // The host's event loop gets a turn every few ms of wall time: a `compare` of a large
    // workload in a live session held it for the whole column (50 s without a frame or an
    // answer to anyone).
    await turns.take();
    const limit = hooks.pastLimit();
    if (limit !== null) throw limit;
    if (t - origin > SIM_LIMIT || hooks.noMoreWork()) {
      // Live jobs and nothing left to happen: an engine bug, not bad input.
      throw new Error(`the run made no progress after ${ms3(t - origin)} ms of simulated time`);
    }
  }
}
