/**
 * The executor's public surface (docs/design.md §4): control jobs and read the executor's state.
 * Beneath it, one layer a concept (executor-state.ts lists them): live reconfiguration
 * (`configure`, live-reconfig.ts), finding and following jobs (`findJobs`, `jobDetail`,
 * `jobWarnings`: executor-queries.ts), the dispatch loop and quantum ends (executor-core.ts),
 * submitting, admission and endings (`submitJob`, `addSplits`, `closeTask`:
 * executor-bookkeeping.ts). Split and job lifecycles, checked on every move, are in lifecycle.ts.
 */
import {
  DEFAULT_ENGINE_CONFIG,
  type EngineConfig,
  type EngineConfigPatch,
  type PolicyName,
} from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type {
  Counters,
  FairGroups,
  ExecutorStatsRow,
  LevelRow,
  RunawaySplit,
  TaskConcurrencyRow,
  WorkerRow,
} from '../../../shared/protocol.ts';
import { assertPriority } from '../../core/priority/index.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend } from '../backend.ts';
import { runawaySplits, runningTime, workerRows } from './executor-rows.ts';
import { fairGroups } from './fair-groups.ts';
import type { ExecutorOptions, QuantumWallVisitor, WaitVisitor } from './executor-state.ts';
import type { JobBook, JobEnd, SplitEnd, TaskEnd } from './job-book.ts';
import { SplitState } from './lifecycle.ts';
import { ExecutorQueries } from './executor-queries.ts';
import { TrailKind } from './job-trail.ts';
import type { ExecJob, ExecSplit } from './records.ts';
import { mergeConfig } from './settings.ts';
import { concurrencyRows, type TargetSummary } from './task-concurrency.ts';
import type { TenantRow } from './tenants.ts';

export type { ExecutorOptions, JobEnd, SplitEnd, TaskEnd, TenantRow, WaitVisitor };

type Listener<T> = (value: T) => void;

export class Executor extends ExecutorQueries {
  constructor(
    backend: Backend,
    config: EngineConfigPatch | unknown = {},
    options: ExecutorOptions = {},
  ) {
    // Without an explicit worker count the executor adopts the backend's (threads: one per core).
    const explicitWorkers = typeof config === 'object' && config !== null && 'workers' in config;
    const defaults = explicitWorkers
      ? DEFAULT_ENGINE_CONFIG
      : { ...DEFAULT_ENGINE_CONFIG, workers: Math.min(256, Math.max(1, backend.workerCount)) };
    super(backend, mergeConfig(defaults, config), options);
  }

  // ─── reading ─────────────────────────────────────────────────────────────────────────────

  get config(): EngineConfig {
    return this.cfg;
  }
  get policy(): ReadyQueue<ExecSplit> {
    return this.queue;
  }
  get policyName(): PolicyName {
    return this.queue.policy;
  }
  get paused(): boolean {
    return this.isPaused;
  }
  now(): number {
    return this.backend.now();
  }

  /**
   * The counters now. Busy and overrun time count the quanta running now as far as they have run
   * (a quantum that never ends shows at once); the running part is measured on the main thread
   * from the quantum's start (executor-rows.ts) and the ended part where the quantum ran, so the
   * totals are kept from going back.
   */
  get counters(): Counters {
    const s = this.stateCounts;
    const b = this.book.counts;
    const c = this.c;
    const quantum = this.settings.dispatchQuantumNanos;
    const running = runningTime(this.backend, this.runningOn, this.now(), quantum);
    c.shownBusy = Math.max(c.shownBusy, c.busyNanos + running.busy);
    c.shownOverrun = Math.max(c.shownOverrun, c.overrunNanos + running.overrun);
    return {
      ...b,
      splitsWaiting: s[SplitState.waiting] ?? 0,
      splitsQueued: s[SplitState.queued] ?? 0,
      splitsRunning: (s[SplitState.running] ?? 0) + (s[SplitState.cancelling] ?? 0),
      splitsBlocked: s[SplitState.blocked] ?? 0,
      splitsRetrying: s[SplitState.retrying] ?? 0,
      quanta: this.c.quanta,
      retries: this.c.retries,
      busyNanos: c.shownBusy,
      overrunNanos: c.shownOverrun,
      staleEnds: c.staleEnds,
      runawayQuanta: c.runawayQuanta,
      killedQuanta: c.killedQuanta,
      ...(c.cpuQuanta > 0 ? { cpuNanos: c.cpuNanos } : {}),
    };
  }

  /**
   * Splits running now whose quantum has overrun it by more than `runawayAfterMs` (Trino's
   * runaway splits; on threads a user module's is killed past `hardKillAfterMs`).
   */
  runawaySplits(): RunawaySplit[] {
    const s = this.settings;
    const now = this.now();
    return runawaySplits(this.backend, this.runningOn, now, s.dispatchQuantumNanos, s.runawayNanos);
  }

  /**
   * Live tasks under Trino's split concurrency controller (`initialSplitConcurrency` set): the
   * first `limit` by id, with their running leaf splits, target and buffer utilisation.
   */
  taskConcurrency(limit?: number): TaskConcurrencyRow[] {
    return concurrencyRows(this.tasks.values(), this.now(), limit);
  }

  /**
   * Per class, the controller's target of each task when it ended, or now for a live one (empty
   * while the controller is off).
   */
  taskTargets(): Map<string, TargetSummary> {
    return this.endedTargets.summary((i) => this.spans.className(i), this.tasks.values());
  }

  /**
   * Trino's executor statistics the executor keeps (executor-stats.ts): leaf splits admitted
   * over time and tasks per level. Quantum wall times are the host's, from `onQuantumWall`.
   */
  executorStats(): Pick<ExecutorStatsRow, 'leafSplits' | 'tasksPerLevel'> {
    const s = this.execStats;
    return {
      leafSplits: s.leafSplitsSize(this.now()),
      tasksPerLevel: { running: [...s.running], completed: [...s.completed] },
    };
  }

  /**
   * Tells `visit` each quantum's wall time as it ends and whether it ended blocked (Trino's
   * blocked and unblocked quanta wall time). One visitor, set once.
   */
  onQuantumWall(visit: QuantumWallVisitor): void {
    if (this.quantumWall !== null) {
      throw new SchedLabError('INVALID_ARGUMENT', 'onQuantumWall is already set', 'onQuantumWall');
    }
    this.quantumWall = visit;
  }

  /** The policy's rows; `chargedNanos` counts from the executor's start (executor-rows.ts). */
  levels(): LevelRow[] {
    return this.levelTable.rows(this.queue);
  }

  /** One row per worker: running, idle, retiring or starting (executor-rows.ts). */
  workers(): WorkerRow[] {
    return workerRows(this.backend, this.runningOn);
  }

  /**
   * Splits dispatched behind a worker's running quantum that have not started there yet
   * (`ExecutorOptions.pipeline`); `counters.splitsRunning` counts them with the running ones.
   */
  queuedBehind(): number {
    let n = 0;
    for (const list of this.queuedOn) if (list !== undefined) n += list.length;
    return n;
  }

  /** Live and recently ended jobs (live first), at most `limit`. */
  jobs(limit = 200): ReturnType<JobBook['rows']> {
    return this.book.rows(limit);
  }

  /** Jain's fairness index across live jobs (job-book.ts). */
  fairness(): { jain: number; jobs: number } {
    const now = this.backend.now();
    const running = new Map<ExecJob, number>();
    for (const s of this.runningOn) {
      if (s) running.set(s.job, (running.get(s.job) ?? 0) + (now - s.dispatchedAt));
    }
    return this.book.jain(now, running);
  }

  /** Service per fairness group at the grouping `fairness` sets now (fair-groups.ts). */
  fairGroups(): FairGroups {
    const now = this.backend.now();
    const running = new Map<ExecSplit, number>();
    for (const s of this.runningOn) if (s) running.set(s, Math.max(0, now - s.dispatchedAt));
    return fairGroups(this.book.liveValues(), this.config.fairness, running, now);
  }

  /** Longest current wait (ns) of a split in the ready queue (not held by admission). */
  oldestWaitNanos(): number {
    let oldest = 0;
    this.forEachWaitInProgress((_cls, wait) => {
      if (wait > oldest) oldest = wait;
    });
    return oldest;
  }

  /**
   * Visits every split in the ready queue with its wait so far: the waits `onDispatchWait` has
   * not seen yet (a split queued for minutes and never run).
   */
  forEachWaitInProgress(visit: WaitVisitor): void {
    this.forEachIn(SplitState.queued, visit);
  }

  /**
   * Visits every leaf split held by admission with its queued time so far: the ones
   * `onAdmissionQueued` has not seen yet.
   */
  forEachQueuedInProgress(visit: WaitVisitor): void {
    this.forEachIn(SplitState.waiting, visit);
  }

  private forEachIn(state: SplitState, visit: WaitVisitor): void {
    const now = this.backend.now();
    for (const s of this.splits.values()) {
      if (s.state === state) visit(s.job.clsIndex, now - s.enqueuedAt, s.basePriority);
    }
  }

  /** Longest requeue wait (ns) of each class since the engine started: yield to next quantum. */
  maxRequeueWaits(): { cls: string; nanos: number }[] {
    return this.requeueWaitMax.map((nanos, i) => ({ cls: this.spans.className(i), nanos }));
  }

  /** A live task's scheduled time (ns), the sum of its quanta; undefined once it has ended. */
  taskScheduledNanos(taskId: number): number | undefined {
    return this.tasks.get(taskId)?.group.scheduledNanos;
  }

  /** Task ids of a live job, in spec order (for `addSplits`). */
  taskIds(jobId: number): number[] {
    const job = this.book.live(jobId);
    return job ? job.tasks.map((t) => t.id) : [];
  }

  /** Tenants (`JobSpec.tenant`): those with live jobs first, then recently idle ones. */
  tenants(limit = 100): TenantRow[] {
    return this.book.tenants.rows(limit);
  }

  jobState(jobId: number): ExecJob['state'] | undefined {
    return this.book.state(jobId);
  }

  onJobEnd(fn: Listener<JobEnd>): () => void {
    return this.book.onJobEnd(fn);
  }
  onTaskEnd(fn: Listener<TaskEnd>): () => void {
    return this.book.onTaskEnd(fn);
  }
  onSplitEnd(fn: Listener<SplitEnd>): () => void {
    return this.book.onSplitEnd(fn);
  }

  /**
   * Tells `visit` every wait of a split for a worker the moment it ends, at the split's dispatch
   * (once per quantum, so it must be cheap). One visitor, set once: a second call is refused.
   */
  onDispatchWait(visit: WaitVisitor): void {
    if (this.dispatchWait !== null) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'onDispatchWait is already set',
        'onDispatchWait',
      );
    }
    this.dispatchWait = visit;
  }

  /**
   * Tells `visit` each leaf split's queued time (creation → admission, Trino's
   * `splitQueuedTime`) the moment admission starts it. One visitor, set once.
   */
  onAdmissionQueued(visit: WaitVisitor): void {
    if (this.admissionQueued !== null) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'onAdmissionQueued is already set',
        'onAdmissionQueued',
      );
    }
    this.admissionQueued = visit;
  }

  // ─── controlling ─────────────────────────────────────────────────────────────────────────

  /** Cancels a live job: queued splits leave the queue, running ones stop at their next unit. */
  cancelJob(jobId: number): boolean {
    const job = this.book.live(jobId);
    if (job === undefined) return false;
    this.endJob(job, 'cancelled', 'cancelled by request', 'CANCELLED');
    this.record('cancel', `job ${jobId}`);
    return true;
  }

  /** Cancels every live job (queued, held by admission or running); returns how many. */
  cancelAll(): number {
    const jobs = this.book.liveJobs();
    for (const job of jobs) this.endJob(job, 'cancelled', 'cancelled by request', 'CANCELLED');
    if (jobs.length > 0) this.record('cancel', `all live jobs: ${jobs.length}`);
    return jobs.length;
  }

  /**
   * Interrupts a running split now (Trino's interrupt of a runaway split, on request): on threads
   * its worker is terminated and replaced through the hard limit's path; elsewhere its quantum is
   * cancelled. Either way the split fails with `INTERRUPTED`, or retries if its job allows, and
   * is charged what it ran. A split that is not running is `UNKNOWN_ID` naming `splitId`.
   */
  interruptSplit(splitId: number): { jobId: number; workerId: number } {
    const split = this.splits.get(splitId);
    if (split === undefined || split.state !== SplitState.running || split.interrupted) {
      throw new SchedLabError('UNKNOWN_ID', `splitId: no running split ${splitId}`, 'splitId');
    }
    split.interrupted = true;
    const worker = split.worker;
    this.record('interrupt', `split ${splitId} (job ${split.job.id}) on worker ${worker}`);
    const why = `interrupted: split ${splitId} on request`;
    if (this.backend.interrupt?.(worker, why) !== true) this.backend.cancel(splitId);
    return { jobId: split.job.id, workerId: worker };
  }

  reprioritize(jobId: number, priority: number): void {
    assertPriority(priority, 'priority');
    const job = this.book.live(jobId);
    if (job === undefined) throw new SchedLabError('UNKNOWN_ID', `no live job ${jobId}`, 'jobId');
    const old = job.basePriority;
    job.basePriority = priority;
    const now = this.backend.now();
    for (const task of job.tasks) {
      for (const s of task.live) {
        s.basePriority = priority;
        if (s.state === SplitState.queued && this.queue.remove(s))
          this.queue.offer(s, now, 'moved');
      }
    }
    this.record('reprioritize', `job ${jobId}: ${old} → ${priority}`);
    this.trail.record(TrailKind.reprioritize, jobId, -1, -1, now, old, priority);
    this.pump();
  }

  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    this.record('pause', 'dispatch paused');
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.record('resume', 'dispatch resumed');
    this.pump();
  }

  /**
   * Resolves once no job is live and no worker still runs a cancelled split (on the sim,
   * something must drive the clock meanwhile).
   */
  async drain(): Promise<void> {
    await this.book.drained();
    if (this.busyWorkers() === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** Cancels every live job and closes the backend. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const job of this.book.liveJobs()) {
      this.endJob(job, 'cancelled', 'engine closed', 'CANCELLED');
    }
    this.closed = true;
    this.tickCancel?.();
    this.tickCancel = null;
    await this.backend.close();
  }
}
