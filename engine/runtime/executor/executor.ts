/**
 * The executor (docs/design.md §4): its public surface, to control jobs and read its state, over
 * parts it composes, each one concept with its dependencies passed in: the live records and every
 * split state change (split-book.ts), the config and the policy's ready queue (knobs.ts),
 * submitting, admission and endings (executor-bookkeeping.ts), the dispatch loop
 * (dispatcher.ts), quantum ends (quantum-ends.ts), the aging timer (aging-ticker.ts), live
 * reconfiguration (live-reconfig.ts) and finding and following jobs (executor-queries.ts), built
 * and wired in executor-parts.ts. Split and job lifecycles, checked on every move, are in
 * lifecycle.ts.
 */
import {
  DEFAULT_ENGINE_CONFIG,
  type EngineConfig,
  type EngineConfigPatch,
  type PolicyName,
} from '../../../shared/config.ts';
import { SchedLabError, type ErrorCode } from '../../../shared/errors.ts';
import type { SpanRing } from '../../../shared/lib/span-ring.ts';
import { tenantWeightsSchema } from '../../../shared/job.ts';
import {
  FIND_JOBS_DEFAULT_LIMIT,
  type Counters,
  type FairGroups,
  type ExecutorStatsRow,
  type FindJobsResult,
  type JobDetail,
  type JobWarning,
  type JobRow,
  type LevelRow,
  type RunawaySplit,
  type TaskConcurrencyRow,
  type WorkerRow,
} from '../../../shared/protocol.ts';
import { runSteps, type WorkBudget } from '../../core/graph/steps.ts';
import { assertPriority } from '../../core/priority/index.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend, SplitWork } from '../backend.ts';
import type { AgingTicker } from './aging-ticker.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { Bookkeeping } from './executor-bookkeeping.ts';
import type { ExecutorOptions, QuantumWallVisitor, WaitVisitor } from './executor-options.ts';
import { composeExecutor } from './executor-parts.ts';
import { DEFAULT_STARVATION_MS, type JobQueries } from './executor-queries.ts';
import { runawaySplits, runningTime, workerRows } from './executor-rows.ts';
import type { ExecutorStats } from './executor-stats.ts';
import type {
  JobBook,
  JobEnd,
  SplitEnd,
  SplitOffWorker,
  SplitParked,
  TaskEnd,
} from './job-book.ts';
import type { JobSpec, SplitSpec } from './job-spec.ts';
import { TrailKind, type JobTrail } from './job-trail.ts';
import type { Jain } from './job-book.ts';
import type { Knobs } from './knobs.ts';
import { SplitState } from './lifecycle.ts';
import type { Reconfigurer } from './live-reconfig.ts';
import type { QuantumEnds } from './quantum-ends.ts';
import type { ExecJob, ExecSplit } from './records.ts';
import { PopulationPass, type PassSources } from './population-pass.ts';
import type { EventRing } from './rings.ts';
import { mergeConfig, zodToError } from './settings.ts';
import type { SplitBook } from './split-book.ts';
import { concurrencyRows, type TargetsByClass, type TargetSummary } from './task-concurrency.ts';
import type { TenantRow } from './tenants.ts';

/** A cancel's words when nobody says why: the console's cancel, `cancelAll`. */
const BY_REQUEST = { message: 'cancelled by request', code: 'CANCELLED' } as const;

export type {
  ExecutorOptions,
  JobEnd,
  SplitEnd,
  SplitOffWorker,
  SplitParked,
  TaskEnd,
  TenantRow,
  WaitVisitor,
};

type Listener<T> = (value: T) => void;

export class Executor {
  readonly spans: SpanRing;
  readonly events: EventRing;
  /** What happened to each job's splits, bounded (job-trail.ts). */
  readonly trail: JobTrail;
  /** The parts this facade composes (executor-parts.ts). */
  private readonly knobs: Knobs;
  private readonly live: SplitBook;
  private readonly book: JobBook;
  private readonly endedTargets: TargetsByClass;
  private readonly execStats: ExecutorStats;
  private readonly dispatcher: Dispatcher;
  private readonly ticker: AgingTicker;
  private readonly bookkeeping: Bookkeeping;
  private readonly quantumEnds: QuantumEnds;
  private readonly reconfig: Reconfigurer;
  private readonly queries: JobQueries;

  constructor(
    readonly backend: Backend,
    config: EngineConfigPatch | unknown = {},
    options: ExecutorOptions = {},
  ) {
    // Without an explicit worker count the executor adopts the backend's (threads: one per core).
    // (`workers: undefined` is no count: as absent, as everywhere in a patch.)
    const explicitWorkers =
      typeof config === 'object' &&
      config !== null &&
      (config as { workers?: unknown }).workers !== undefined;
    const defaults = explicitWorkers
      ? DEFAULT_ENGINE_CONFIG
      : { ...DEFAULT_ENGINE_CONFIG, workers: Math.min(256, Math.max(1, backend.workerCount)) };
    const p = composeExecutor(backend, mergeConfig(defaults, config), options);
    this.spans = p.spans;
    this.events = p.events;
    this.trail = p.trail;
    this.knobs = p.knobs;
    this.live = p.live;
    this.book = p.book;
    this.endedTargets = p.endedTargets;
    this.execStats = p.execStats;
    this.dispatcher = p.dispatcher;
    this.ticker = p.ticker;
    this.bookkeeping = p.bookkeeping;
    this.quantumEnds = p.quantumEnds;
    this.reconfig = p.reconfig;
    this.queries = p.queries;
  }

  // ─── finding and following jobs (executor-queries.ts) ────────────────────────────────────

  /** Jobs matching `query` (shared/lib/job-query.ts); a bad query names itself (`query`). */
  findJobs(query: string, limit = FIND_JOBS_DEFAULT_LIMIT): FindJobsResult {
    return this.queries.findJobs(query, limit);
  }

  /** One job's splits, timelines, priority changes and warnings; `UNKNOWN_ID` if not known. */
  jobDetail(jobId: number, starvationMs = DEFAULT_STARVATION_MS): JobDetail {
    return this.queries.jobDetail(jobId, starvationMs);
  }

  /** The warnings every live job raises now (warnings.ts), worst first within each rule. */
  jobWarnings(starvationMs = DEFAULT_STARVATION_MS): JobWarning[] {
    return this.queries.jobWarnings(starvationMs);
  }

  // ─── reading ─────────────────────────────────────────────────────────────────────────────

  get config(): EngineConfig {
    return this.knobs.cfg;
  }
  get policy(): ReadyQueue<ExecSplit> {
    return this.knobs.queue;
  }
  get policyName(): PolicyName {
    return this.knobs.queue.policy;
  }
  /**
   * How many split and task records it holds by id (live ones and those whose end is still
   * owed): what a soak watches, since a leak of records shows here before it shows in the heap.
   */
  get heldRecords(): { splits: number; tasks: number } {
    return { splits: this.live.splits.size, tasks: this.live.tasks.size };
  }
  /**
   * Splits cancelled while on a worker whose quantum has not returned yet: `counters` counts them
   * running (they hold their worker), though their jobs have ended.
   */
  get splitsCancelling(): number {
    return this.live.stateCounts[SplitState.cancelling] ?? 0;
  }
  /**
   * Cancelled splits whose quantum is on a worker now, started: they hold it until it returns.
   * `counters.splitsRunning` counts them, and not those queued behind a running quantum.
   */
  get splitsCancellingOnWorkers(): number {
    return this.splitsCancelling - this.dispatcher.cancellingBehind();
  }
  get paused(): boolean {
    return this.dispatcher.paused;
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
    const quantum = this.knobs.settings.dispatchQuantumNanos;
    const running = runningTime(this.backend, this.dispatcher.runningOn, this.now(), quantum);
    const behind = this.queuedBehind();
    return this.quantumEnds.counters(this.live.stateCounts, this.book.counts, running, behind);
  }

  /**
   * Splits running now whose quantum has overrun it by more than `runawayAfterMs` (Trino's
   * runaway splits; on threads a user module's is killed past `hardKillAfterMs`).
   */
  runawaySplits(): RunawaySplit[] {
    const s = this.knobs.settings;
    const now = this.now();
    return runawaySplits(
      this.backend,
      this.dispatcher.runningOn,
      now,
      s.dispatchQuantumNanos,
      s.runawayNanos,
    );
  }

  /**
   * Live tasks under Trino's split concurrency controller (`initialSplitConcurrency` set): the
   * first `limit` by id, with their running leaf splits, target and buffer utilisation.
   */
  taskConcurrency(limit?: number): TaskConcurrencyRow[] {
    return concurrencyRows(this.live.tasks.values(), this.now(), limit);
  }

  /**
   * Per class, the controller's target of each task when it ended, or now for a live one (empty
   * while the controller is off).
   */
  taskTargets(): Map<string, TargetSummary> {
    return this.endedTargets.summary((i) => this.spans.className(i), this.live.tasks.values());
  }

  /**
   * Trino's executor statistics the executor keeps (executor-stats.ts): leaf splits admitted
   * over time and tasks per level. Quantum wall times are the host's, from `onQuantumWall`.
   */
  executorStats(atNanos = this.now()): Pick<ExecutorStatsRow, 'leafSplits' | 'tasksPerLevel'> {
    const s = this.execStats;
    return {
      leafSplits: s.leafSplitsSize(atNanos),
      tasksPerLevel: { running: [...s.running], completed: [...s.completed] },
    };
  }

  /**
   * Tells `visit` each quantum's wall time as it ends and whether it ended blocked (Trino's
   * blocked and unblocked quanta wall time). One visitor, set once.
   */
  onQuantumWall(visit: QuantumWallVisitor): void {
    refuseSecond(this.quantumEnds.quantumWall, 'onQuantumWall');
    this.quantumEnds.quantumWall = visit;
  }

  /** The policy's rows; `chargedNanos` counts from the executor's start (executor-rows.ts). */
  levels(): LevelRow[] {
    return this.knobs.levelTable.rows(this.knobs.queue);
  }

  /** One row per worker: running, idle, retiring or starting (executor-rows.ts). */
  workers(): WorkerRow[] {
    return workerRows(this.backend, this.dispatcher.runningOn);
  }

  /**
   * Splits dispatched behind a worker's running quantum that have not started there yet
   * (`ExecutorOptions.pipeline`); `counters` counts them queued, not running.
   */
  queuedBehind(): number {
    return this.dispatcher.queuedBehind();
  }

  /** Live and recently ended jobs (live first), at most `limit`. */
  jobs(limit = 200): ReturnType<JobBook['rows']> {
    return this.book.rows(limit);
  }

  /** Jain's fairness index across live jobs (job-book.ts). */
  fairness(): Jain {
    return runSteps(this.populationPass().jain());
  }

  /** Service per fairness group at the grouping `fairness` sets now (fair-groups.ts). */
  fairGroups(): FairGroups {
    return runSteps(this.populationPass().fairGroups());
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
    this.populationPass().openWaits(visit, null);
  }

  /**
   * Visits every leaf split held by admission with its queued time so far: the ones
   * `onAdmissionQueued` has not seen yet.
   */
  forEachQueuedInProgress(visit: WaitVisitor): void {
    this.populationPass().openWaits(null, visit);
  }

  /**
   * Keeps the waiting splits in columns (waiting-index.ts) for a host that reads the waits in
   * progress every frame, or (`false`) lets them go: each split's move then costs nothing more.
   */
  keepWaitingIndex(keep: boolean): void {
    this.live.keepWaiting(keep);
  }

  /**
   * The passes over every live run and split (waits in progress, warnings, Jain, fair groups):
   * in steps of `budget` for a host that spreads them over frames, in one piece without
   * (population-pass.ts).
   */
  populationPass(budget?: WorkBudget): PopulationPass {
    const queries = this.queries;
    const sources: PassSources = {
      now: () => this.backend.now(),
      splits: () => this.live.splits.values(),
      jobs: () => this.book.liveValues(),
      waiting: () => this.live.waiting,
      runningBound: (worker) => this.backend.runningBound?.(worker) ?? Infinity,
      runningOn: this.dispatcher.runningOn,
      queuedOn: this.dispatcher.queuedOn,
      fairness: this.config.fairness,
      warnings: (splits, peers, starvationMs, b, limit) =>
        queries.warningSteps(splits, peers, starvationMs, b, limit),
    };
    return new PopulationPass(sources, budget);
  }

  /** Longest requeue wait (ns) of each class since the engine started: yield to next quantum. */
  maxRequeueWaits(): { cls: string; nanos: number }[] {
    return this.dispatcher.requeueWaitMax.map((nanos, i) => ({
      cls: this.spans.className(i),
      nanos,
    }));
  }

  /** A live task's scheduled time (ns), the sum of its quanta; undefined once it has ended. */
  taskScheduledNanos(taskId: number): number | undefined {
    return this.live.tasks.get(taskId)?.group.scheduledNanos;
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

  /** How many tenants it holds (`tenants()` lists at most its limit of them). */
  get tenantCount(): number {
    return this.book.tenants.count;
  }

  /**
   * Replaces every tenant's weight under `fair` (`FairnessGroup.weight`): those named get theirs,
   * all others 1. Checked first (`INVALID_ARGUMENT` naming the tenant): a bad one changes nothing.
   */
  setTenantWeights(weights: Readonly<Record<string, number>>): void {
    const parsed = tenantWeightsSchema.safeParse(weights);
    if (!parsed.success) throw zodToError(parsed.error, 'INVALID_ARGUMENT', ['tenantWeights']);
    const tenants = this.book.tenants;
    tenants.setWeights(new Map(Object.entries(parsed.data)));
    this.record('weights', tenants.describeWeights());
  }

  /** The tenant weights other than 1 now, by name. */
  get tenantWeights(): Record<string, number> {
    return Object.fromEntries(this.book.tenants.weighted);
  }

  /** One tenant's weight now (1 unless set). */
  tenantWeight(name: string): number {
    return this.book.tenants.weightOf(name);
  }

  /** How many times the weights were set (frames carry it, so a console knows to read them again). */
  get tenantWeightsVersion(): number {
    return this.book.tenants.weightsVersion;
  }

  jobState(jobId: number): ExecJob['state'] | undefined {
    return this.book.state(jobId);
  }

  /** A job's row (its state, and why it ended), while live or while the history holds it. */
  jobRow(jobId: number): JobRow | undefined {
    return this.book.row(jobId);
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
   * A split cancelled while its quantum ran (its end told with `stillRunning`), once that quantum
   * has returned (or, queued behind another, was handed back unstarted): its whole time.
   */
  onSplitOffWorker(fn: Listener<SplitOffWorker>): () => void {
    return this.book.onSplitOffWorker(fn);
  }
  /** A split that blocks (its quantum ended `blocked`), and again when it wakes. */
  onSplitParked(fn: Listener<SplitParked>): () => void {
    return this.book.onSplitParked(fn);
  }

  /**
   * Tells `visit` every wait of a split for a worker the moment it ends, at the split's dispatch
   * (once per quantum, so it must be cheap). One visitor, set once: a second call is refused.
   */
  onDispatchWait(visit: WaitVisitor): void {
    refuseSecond(this.dispatcher.dispatchWait, 'onDispatchWait');
    this.dispatcher.dispatchWait = visit;
  }

  /**
   * Tells `visit` each leaf split's queued time (creation → admission, Trino's
   * `splitQueuedTime`) the moment admission starts it. One visitor, set once.
   */
  onAdmissionQueued(visit: WaitVisitor): void {
    refuseSecond(this.bookkeeping.admissionQueued, 'onAdmissionQueued');
    this.bookkeeping.admissionQueued = visit;
  }

  // ─── controlling ─────────────────────────────────────────────────────────────────────────

  /** Submits a job; returns its id. A job beyond `maxQueued` is born `rejected` (counted). */
  submitJob(spec: JobSpec): number {
    this.ensureOpen();
    return this.bookkeeping.submitJob(spec);
  }

  /**
   * `submitJob` for a spec its caller built from parts it has checked already (the library's
   * `run`: task.ts checks the task, options.ts the options), so the schema is not parsed again
   * for every run. `owner` comes back on the job's end event (`JobEnd.owner`), so the caller
   * needs no map of its own from job ids to what it waits on.
   */
  submitCheckedJob(spec: JobSpec, owner?: unknown): number {
    this.ensureOpen();
    return this.bookkeeping.submitCheckedJob(spec, owner);
  }

  /**
   * `submitCheckedJob` of a job of one task of one intermediate split running `work` (the
   * library's run), without building the spec's arrays per run. Returns the job's id.
   */
  submitOneSplit(
    cls: string,
    basePriority: number,
    tenant: string | undefined,
    work: SplitWork,
    owner?: unknown,
  ): number {
    this.ensureOpen();
    return this.bookkeeping.submitOneSplit(cls, basePriority, tenant, work, owner);
  }

  /** Adds splits to a live task (Trino's controller tops up leaf tasks). Returns their ids. */
  addSplits(taskId: number, splits: readonly SplitSpec[]): number[] {
    this.ensureOpen();
    return this.bookkeeping.addSplits(taskId, splits);
  }

  /**
   * Makes live job `jobId` a graph job (engine/runtime/graph/executor-graph.ts): a split of it
   * that fails ends only itself, so the graph run can retry the node, skip its successors or stop.
   */
  ownSplitFailures(jobId: number): void {
    const job = this.book.live(jobId);
    if (job !== undefined) job.ownsSplitFailures = true;
  }

  /**
   * Ends live job `jobId` `failed` with `reason` (a graph job whose graph failed: its owner
   * decided); its splits still live are cancelled, as a failed split past its retries does.
   */
  failJob(jobId: number, reason: string, code: NonNullable<JobEnd['errorCode']>): void {
    const job = this.book.live(jobId);
    if (job !== undefined) this.bookkeeping.endJob(job, 'failed', reason, code);
  }

  /** Marks an open task complete: it ends once its splits have. */
  closeTask(taskId: number): void {
    this.bookkeeping.closeTask(taskId);
  }

  setPolicy(name: PolicyName): void {
    this.configure({ policy: name });
  }

  setWorkers(count: number): void {
    this.configure({ workers: count });
  }

  /** Validates the whole patch first (coded error naming the field), then applies it live. */
  configure(patch: EngineConfigPatch | unknown): EngineConfig {
    this.ensureOpen();
    return this.reconfig.configure(patch);
  }

  /** Records a marker on the timeline (workload loads, presets). */
  record(kind: string, detail: string): void {
    this.events.push({ timeNanos: this.backend.now(), kind, detail });
  }

  /**
   * Cancels a live job: queued splits leave the queue, running ones stop at their next unit.
   * `why`: what its row says (a library run's timeout or abort says which, with its code; by
   * default `cancelled by request`, `CANCELLED`).
   */
  cancelJob(
    jobId: number,
    why: { readonly message: string; readonly code: ErrorCode } = BY_REQUEST,
  ): boolean {
    const job = this.book.live(jobId);
    if (job === undefined) return false;
    this.bookkeeping.endJob(job, 'cancelled', why.message, why.code);
    this.record('cancel', `job ${jobId}`);
    return true;
  }

  /** Cancels every live job (queued, held by admission or running); returns how many. */
  cancelAll(): number {
    const jobs = this.book.liveJobs();
    for (const job of jobs)
      this.bookkeeping.endJob(job, 'cancelled', BY_REQUEST.message, BY_REQUEST.code);
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
    const split = this.live.splits.get(splitId);
    if (split === undefined || split.state !== SplitState.running || split.interrupted) {
      throw new SchedLabError('UNKNOWN_ID', `splitId: no running split ${splitId}`, 'splitId');
    }
    split.interrupted = true;
    const worker = split.worker;
    const why = `interrupted: split ${splitId} on request`;
    const stopped = this.backend.interrupt?.(worker, why, splitId);
    // The backend first delivers an end its worker had published: the quantum may have ended
    // just now (the split requeued, done or blocked), and the worker run another split. (When it
    // stopped the split, the split may have ended already too: failed INTERRUPTED.)
    if (stopped !== true && (split.state !== SplitState.running || split.worker !== worker)) {
      split.interrupted = false;
      throw new SchedLabError(
        'UNKNOWN_ID',
        `splitId: split ${splitId} is no longer running (its quantum had just ended)`,
        'splitId',
      );
    }
    this.record('interrupt', `split ${splitId} (job ${split.job.id}) on worker ${worker}`);
    if (stopped !== true) this.backend.cancel(splitId);
    return { jobId: split.job.id, workerId: worker };
  }

  reprioritize(jobId: number, priority: number): void {
    assertPriority(priority, 'priority');
    const job = this.book.live(jobId);
    if (job === undefined) throw new SchedLabError('UNKNOWN_ID', `no live job ${jobId}`, 'jobId');
    const old = job.basePriority;
    job.basePriority = priority;
    const now = this.backend.now();
    // Only PRIO orders by priority: under the others a queued split keeps its place (it went to
    // the back of the FIFO, a priority change being a new push there).
    const requeue = this.knobs.queue.policy === 'priority';
    for (const task of job.tasks) {
      for (const s of task.live) {
        s.basePriority = priority;
        this.live.repriced(s);
        if (requeue && s.state === SplitState.queued && this.knobs.queue.remove(s))
          this.knobs.queue.offer(s, now, 'moved');
      }
    }
    this.record('reprioritize', `job ${jobId}: ${old} → ${priority}`);
    this.trail.record(TrailKind.reprioritize, jobId, -1, -1, now, old, priority);
    this.dispatcher.pump();
  }

  /**
   * Dispatches no quantum at or after backend time `atNanos`: a headless run's end. Its stop
   * timer fires late on a loaded machine, and the quanta started meanwhile ran past `--duration`;
   * the ones running at `atNanos` end at their own time.
   */
  stopDispatchAt(atNanos: number): void {
    this.dispatcher.stopAt = atNanos;
  }

  pause(): void {
    if (this.dispatcher.paused) return;
    this.dispatcher.paused = true;
    this.record('pause', 'dispatch paused');
  }

  resume(): void {
    if (!this.dispatcher.paused) return;
    this.dispatcher.paused = false;
    this.record('resume', 'dispatch resumed');
    this.dispatcher.pump();
  }

  /**
   * Resolves once no job is live and no worker still runs a cancelled split (on the sim,
   * something must drive the clock meanwhile).
   */
  async drain(): Promise<void> {
    await this.book.drained();
    // Closed, no worker reports again: a split it still ran would be waited for for good.
    if (this.dispatcher.closed || this.live.busyWorkers() === 0) return;
    await new Promise<void>((resolve) => this.quantumEnds.drainWaiters.push(resolve));
  }

  /** Cancels every live job and closes the backend; a `drain` waiting then resolves. */
  /**
   * Cancels every live job and closes the backend. A second call returns the first's promise: it
   * returned at once, so a caller awaiting it (the library's drain-then-cancel `close`) went on
   * while the workers were still stopping.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private closing: Promise<void> | null = null;

  private async shutdown(): Promise<void> {
    for (const job of this.book.liveJobs()) {
      this.bookkeeping.endJob(job, 'cancelled', 'engine closed', 'CANCELLED');
    }
    this.dispatcher.closed = true;
    this.ticker.stop();
    await this.backend.close();
    this.bookkeeping.endCancelling();
    const waiters = this.quantumEnds.drainWaiters;
    this.quantumEnds.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private ensureOpen(): void {
    if (this.dispatcher.closed) {
      throw new SchedLabError('ENGINE_CLOSED', 'the executor is closed', 'executor');
    }
  }
}

/** A visitor is set once: a second `name` call is refused (coded error naming it). */
function refuseSecond(current: unknown, name: string): void {
  if (current !== null) throw new SchedLabError('INVALID_ARGUMENT', `${name} is already set`, name);
}
