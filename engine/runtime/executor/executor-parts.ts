/**
 * The executor's composition root (docs/design.md §4): builds its parts, each given only what it
 * uses, wires the few that need each other through narrow interfaces (the bookkeeping wakes the
 * dispatcher and the ticker; quantum ends end splits through the bookkeeping; the reconfigurer
 * asks for re-admission and dispatch after a change), and attaches them to the backend. The
 * `Executor` facade (executor.ts) holds the result.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import { SpanRing } from '../../../shared/lib/span-ring.ts';
import type { Backend } from '../backend.ts';
import { AgingTicker } from './aging-ticker.ts';
import { ClassSplitTimes } from './class-split-times.ts';
import { Dispatcher } from './dispatcher.ts';
import { Bookkeeping } from './executor-bookkeeping.ts';
import type { ExecutorOptions } from './executor-options.ts';
import { JobQueries } from './executor-queries.ts';
import { ExecutorStats } from './executor-stats.ts';
import { JobBook } from './job-book.ts';
import { JobTrail } from './job-trail.ts';
import { Knobs } from './knobs.ts';
import { Reconfigurer } from './live-reconfig.ts';
import { QuantumEnds } from './quantum-ends.ts';
import { EventRing } from './rings.ts';
import { SplitBook } from './split-book.ts';
import { TargetsByClass } from './task-concurrency.ts';

export interface ExecutorParts {
  readonly spans: SpanRing;
  readonly events: EventRing;
  /** What happened to each job's splits, bounded (job-trail.ts). */
  readonly trail: JobTrail;
  readonly knobs: Knobs;
  readonly live: SplitBook;
  readonly book: JobBook;
  /** Each ended task's split concurrency target, by class (task-concurrency.ts). */
  readonly endedTargets: TargetsByClass;
  /** Tasks per level and leaf splits admitted over time (executor-stats.ts). */
  readonly execStats: ExecutorStats;
  readonly dispatcher: Dispatcher;
  readonly ticker: AgingTicker;
  readonly bookkeeping: Bookkeeping;
  readonly quantumEnds: QuantumEnds;
  readonly reconfig: Reconfigurer;
  readonly queries: JobQueries;
}

/** The parts of an executor running `config` on `backend`, attached to it. */
export function composeExecutor(
  backend: Backend,
  config: EngineConfig,
  options: ExecutorOptions,
): ExecutorParts {
  const knobs = new Knobs(config);
  const spans = new SpanRing(options.spanCapacity ?? 65_536);
  const events = new EventRing(options.eventCapacity ?? 1024);
  const trail = new JobTrail(options.jobTrailCapacity);
  const book = new JobBook(options.recentJobs ?? 256);
  const live = new SplitBook();
  const endedTargets = new TargetsByClass();
  const pipelined =
    options.pipeline === true &&
    backend.queueableWorkers !== undefined &&
    backend.enqueue !== undefined &&
    backend.revoke !== undefined;
  const execStats = new ExecutorStats(knobs.settings.levelThresholdsNanos, backend.now());
  const classTimes = new ClassSplitTimes();
  const dispatcher = new Dispatcher(backend, knobs, live, trail, pipelined);
  const ticker = new AgingTicker(backend, knobs, book, dispatcher);
  const bookkeeping = new Bookkeeping(
    backend,
    knobs,
    live,
    book,
    spans,
    trail,
    execStats,
    classTimes,
    endedTargets,
    dispatcher,
    ticker,
  );
  const quantumEnds = new QuantumEnds(
    backend,
    knobs,
    live,
    dispatcher,
    spans,
    trail,
    execStats,
    book,
    bookkeeping,
  );
  const record = (kind: string, detail: string): void =>
    events.push({ timeNanos: backend.now(), kind, detail });
  const reconfig = new Reconfigurer(backend, knobs, live, execStats, dispatcher.runningOn, {
    record,
    afterChange: () => {
      bookkeeping.admit();
      ticker.ensure();
      dispatcher.pump();
    },
  });
  const runningOn = dispatcher.runningOn;
  const queries = new JobQueries(
    book,
    trail,
    live,
    knobs,
    classTimes,
    backend,
    (s) => runningOn[s.worker] === s,
  );
  if (backend.workerCount !== config.workers) backend.setWorkerCount(config.workers);
  backend.setListener({
    // onQuantumEnd keeps nothing of `end`: the backend may reuse one object for every quantum.
    quantumEnd: (end) => quantumEnds.onQuantumEnd(end),
    transientEnd: true,
    // The backend knows splits, not jobs: a notice about a split (live, or a user module's that
    // ended recently) names its job.
    notice: (kind, detail, splitId) => {
      const job = splitId === undefined ? undefined : live.jobOf(splitId);
      record(kind, job === undefined ? detail : `job ${job}: ${detail}`);
    },
    capacity: () => dispatcher.pump(),
  });
  backend.setHardKill?.(knobs.settings.hardKillNanos);
  return {
    spans,
    events,
    trail,
    knobs,
    live,
    book,
    endedTargets,
    execStats,
    dispatcher,
    ticker,
    bookkeeping,
    quantumEnds,
    reconfig,
    queries,
  };
}
