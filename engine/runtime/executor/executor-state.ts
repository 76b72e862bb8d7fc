/**
 * What every layer of the executor shares (docs/design.md §4): its records, counters, queue and
 * backend, and the few moves all of them make — a split's state change (checked against
 * lifecycle.ts, counted per state), a timeline marker, the aging ticker.
 *
 * The executor is built in layers, each one concept, each extending the one before:
 * this state → submitting, admission and endings (executor-bookkeeping.ts) → the dispatch loop and
 * quantum ends (executor-core.ts) → live reconfiguration (live-reconfig.ts) → finding and
 * following jobs (executor-queries.ts) → the public surface (executor.ts).
 * A lower layer reaches a higher one only through the abstract `pump`/`onQuantumEnd` below.
 */
import { LevelTable } from './executor-rows.ts';
import type { EngineConfig } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { createPolicy, type PolicyKnobs } from '../../core/policies.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend, QuantumEnd } from '../backend.ts';
import { Admission } from './admission.ts';
import { JobBook } from './job-book.ts';
import { SplitState, checkSplitTransition } from './lifecycle.ts';
import type { ExecSplit, ExecTask } from './records.ts';
import { ClassSplitTimes } from './class-split-times.ts';
import { JobTrail } from './job-trail.ts';
import { SpanRing } from '../../../shared/lib/span-ring.ts';
import { EventRing } from './rings.ts';
import { toSettings, type EngineSettings } from './settings.ts';
import { TargetsByClass } from './task-concurrency.ts';
import { ExecutorStats } from './executor-stats.ts';
import { KernelTimes } from './kernel-times.ts';

/** Told each quantum's wall time as it ends, and whether it ended blocked (Trino's split). */
export type QuantumWallVisitor = (wallNanos: number, blocked: boolean) => void;

/**
 * A split's wait for a worker, as it ends (at its dispatch) or so far: its job's class (the span
 * ring's class index, `spans.className`), the wait in ns, and its base priority. As Trino's
 * split wait time, a wait runs from when the split entered the ready queue (created, or, for a
 * leaf split, admitted; requeued; woken; retry backoff over) to its dispatch. A leaf split's time
 * in its task's admission FIFO before that is its *queued time* (Trino's `splitQueuedTime`),
 * reported to the same kind of visitor through `Executor.onAdmissionQueued`.
 */
export type WaitVisitor = (clsIndex: number, waitNanos: number, basePriority: number) => void;

/** How many ended user-module splits keep their job known for late notices. */
const ENDED_MODULE_SPLITS = 4096;

export interface ExecutorOptions {
  /** Gantt spans kept (ring); older ones are dropped and counted by readers. */
  readonly spanCapacity?: number;
  readonly eventCapacity?: number;
  /** Ended jobs remembered for job tables (and `findJobs`), per kind: succeeded, and not. */
  readonly recentJobs?: number;
  /** Entries of the job trail (`jobDetail`), job-trail.ts. */
  readonly jobTrailCapacity?: number;
  /**
   * Keep dispatches queued behind each busy worker's quantum, on a backend that can (threads:
   * `queueableWorkers`/`enqueue`), so a worker goes on to its next quantum without a round trip
   * through the main thread: one, or on a backend with `queueRoom` (threads) as many as are
   * expected to run within one quantum, a kernel's recent quanta saying how long its splits take
   * (a split that ran before, or whose kernel never ran, counts as a whole quantum, so nothing
   * is queued behind long work). Splits are taken from the policy in its order, that much early;
   * charging, levels and waits are as without it. A worker that goes idle with nothing ready
   * takes back a split queued elsewhere that has not started. Default off (the library's
   * `Scheduler` turns it on).
   */
  readonly pipeline?: boolean;
}

export abstract class ExecutorState {
  readonly spans: SpanRing;
  readonly events: EventRing;
  /** What happened to each job's splits, bounded (job-trail.ts). */
  readonly trail: JobTrail;
  /** Recent succeeded splits' time per class, for the `slow-split` warning. */
  protected readonly classTimes = new ClassSplitTimes();
  protected cfg: EngineConfig;
  protected settings: EngineSettings;
  protected queue: ReadyQueue<ExecSplit>;
  /** Level rows, with what earlier queues of each policy charged (executor-rows.ts). */
  protected readonly levelTable = new LevelTable();
  protected readonly admission = new Admission();
  protected readonly book: JobBook;
  protected readonly splits = new Map<number, ExecSplit>();
  protected readonly tasks = new Map<number, ExecTask>();
  /** Longest requeue wait per class (by the span ring's class index), ns. */
  protected readonly requeueWaitMax: number[] = [];
  protected readonly runningOn: (ExecSplit | null)[] = [];
  /**
   * The splits queued behind each worker's running one, in the order the worker runs them
   * (`ExecutorOptions.pipeline`), and their expected run time summed (ns, `expectedNanos`).
   */
  protected readonly queuedOn: ExecSplit[][] = [];
  protected readonly queuedExpected: number[] = [];
  /** Recent quantum wall time per kernel (ns), for the expected time of a queued split. */
  protected readonly kernelNanos = new KernelTimes();
  /** Whether this executor queues dispatches behind running quanta (see `pipeline`). */
  protected readonly pipelined: boolean;
  protected readonly stateCounts = new Int32Array(9);
  /** Each ended task's split concurrency target, by class (task-concurrency.ts). */
  protected readonly endedTargets = new TargetsByClass();
  /** Tasks per level and leaf splits admitted over time (executor-stats.ts). */
  protected readonly execStats: ExecutorStats;
  /** Told every quantum's wall time (`Executor.onQuantumWall`); null costs one check a quantum. */
  protected quantumWall: QuantumWallVisitor | null = null;
  /** Told every wait as it ends (`Executor.onDispatchWait`); null costs one check a quantum. */
  protected dispatchWait: WaitVisitor | null = null;
  /** Told every leaf split's queued time as it is admitted (`Executor.onAdmissionQueued`). */
  protected admissionQueued: WaitVisitor | null = null;
  protected nextJobId = 1;
  protected nextTaskId = 1;
  protected nextSplitId = 1;
  protected pumping = false;
  protected isPaused = false;
  protected closed = false;
  protected tickCancel: (() => void) | null = null;
  protected drainWaiters: (() => void)[] = [];
  /** Recently ended user-module splits → their job (`rememberModuleSplit`). */
  private readonly endedModuleSplits = new Map<number, number>();
  protected readonly c = {
    quanta: 0,
    retries: 0,
    busyNanos: 0,
    overrunNanos: 0,
    staleEnds: 0,
    runawayQuanta: 0,
    killedQuanta: 0,
    /** CPU time of ended quanta that measured it (`QuantumEnd.cpuNanos`), and how many did. */
    cpuNanos: 0,
    cpuQuanta: 0,
    /** The largest busy and overrun totals shown so far (`counters` never goes back). */
    shownBusy: 0,
    shownOverrun: 0,
  };

  constructor(
    readonly backend: Backend,
    config: EngineConfig,
    options: ExecutorOptions,
  ) {
    this.cfg = config;
    this.settings = toSettings(config);
    this.spans = new SpanRing(options.spanCapacity ?? 65_536);
    this.events = new EventRing(options.eventCapacity ?? 1024);
    this.trail = new JobTrail(options.jobTrailCapacity);
    this.book = new JobBook(options.recentJobs ?? 256);
    this.pipelined =
      options.pipeline === true &&
      backend.queueableWorkers !== undefined &&
      backend.enqueue !== undefined &&
      backend.revoke !== undefined;
    this.queue = createPolicy<ExecSplit>(config.policy, this.policyKnobs());
    this.execStats = new ExecutorStats(this.settings.levelThresholdsNanos, backend.now());
    if (backend.workerCount !== config.workers) backend.setWorkerCount(config.workers);
    // onQuantumEnd keeps nothing of `end`: the backend may reuse one object for every quantum.
    backend.setListener({
      quantumEnd: (end) => this.onQuantumEnd(end),
      transientEnd: true,
      notice: (kind, detail, splitId) => this.record(kind, this.withJob(detail, splitId)),
      capacity: () => this.pump(),
    });
    backend.setHardKill?.(this.settings.hardKillNanos);
  }

  /** Dispatches ready splits to idle workers (executor-core.ts). */
  protected abstract pump(): void;
  protected abstract onQuantumEnd(end: QuantumEnd): void;

  /**
   * Names the job of split `splitId` (live, or a user module's that ended recently) before a
   * backend's notice about it: the backend knows splits, not jobs.
   */
  private withJob(detail: string, splitId: number | undefined): string {
    if (splitId === undefined) return detail;
    const job = this.splits.get(splitId)?.job.id ?? this.endedModuleSplits.get(splitId);
    return job === undefined ? detail : `job ${job}: ${detail}`;
  }

  /** A user module's split ended: its job stays known for late notices about it (bounded). */
  protected rememberModuleSplit(splitId: number, jobId: number): void {
    const known = this.endedModuleSplits;
    known.set(splitId, jobId);
    if (known.size > ENDED_MODULE_SPLITS) known.delete(known.keys().next().value!);
  }

  /** Records a marker on the timeline (workload loads, presets). */
  record(kind: string, detail: string): void {
    this.events.push({ timeNanos: this.backend.now(), kind, detail });
  }

  /** Splits holding a place in the bounded queue: everything not running and not ended. */
  protected pendingSplits(): number {
    const c = this.stateCounts;
    return (
      (c[SplitState.waiting] ?? 0) +
      (c[SplitState.queued] ?? 0) +
      (c[SplitState.blocked] ?? 0) +
      (c[SplitState.retrying] ?? 0)
    );
  }

  protected busyWorkers(): number {
    return (
      (this.stateCounts[SplitState.running] ?? 0) + (this.stateCounts[SplitState.cancelling] ?? 0)
    );
  }

  protected policyKnobs(): PolicyKnobs {
    const s = this.settings;
    const c = this.cfg;
    return {
      levelTimeMultiplier: c.levelTimeMultiplier,
      levelThresholdsNanos: s.levelThresholdsNanos,
      levelContributionCapNanos: s.levelContributionCapNanos,
      aging: c.aging,
      agingAfterNanos: s.agingAfterNanos,
      agingStepNanos: s.agingStepNanos,
      agingCap: c.agingCap,
      agingIntervalNanos: s.agingIntervalNanos,
      quotaBurst: c.quotaBurst,
      // The executor bounds the queue itself (maxQueued); the policy must never refuse a split.
      maxQueued: Math.max(c.maxQueued * 2, 1 << 20),
    };
  }

  /** Aging is re-evaluated on a timer, only while jobs are live (so the sim can go idle). */
  protected ensureTicker(): void {
    const wanted = this.queue.policy === 'priority' && this.book.counts.live > 0 && !this.closed;
    if (!wanted) {
      this.tickCancel?.();
      this.tickCancel = null;
      return;
    }
    if (this.tickCancel !== null) return;
    const at = this.backend.now() + this.settings.agingIntervalNanos;
    this.tickCancel = this.backend.setTimer(at, () => {
      this.tickCancel = null;
      this.queue.tick(this.backend.now());
      this.pump();
      this.ensureTicker();
    });
  }

  protected ensureOpen(): void {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the executor is closed', 'executor');
  }

  protected move(split: ExecSplit, to: SplitState): void {
    checkSplitTransition(split.id, split.state, to);
    this.stateCounts[split.state]!--;
    this.stateCounts[to]!++;
    split.state = to;
  }
}
