/**
 * How jobs, tasks and splits come and go (docs/design.md §4): jobs are submitted and tasks topped
 * up and closed here, each spec checked first (job-spec.ts). A split is created `queued`, or
 * `waiting` when it is a leaf that must pass Trino's admission first (admission.ts); it ends
 * terminal (lifecycle.ts), or `cancelling` while it still runs on a worker. Each ending settles
 * its task, and a task's its job (job-book.ts keeps the counts, rows and end events). Arrivals
 * wake the dispatcher and the aging ticker, through the narrow `Pump` and `Ticker`.
 */
import type { SpanRing } from '../../../shared/lib/span-ring.ts';
import { SchedLabError, type ErrorCode } from '../../../shared/errors.ts';
import type { OutputBufferSpec } from '../../core/concurrency/output-buffer.ts';
import type { Backend, SplitWork } from '../backend.ts';
import { Admission } from './admission.ts';
import type { ClassSplitTimes } from './class-split-times.ts';
import type { WaitVisitor } from './executor-options.ts';
import type { ExecutorStats } from './executor-stats.ts';
import type { JobBook, TaskEnd } from './job-book.ts';
import { checkJobSpec, checkSplits, type JobSpec, type SplitSpec } from './job-spec.ts';
import { SPLIT_END_STATES, TrailKind, type JobTrail } from './job-trail.ts';
import type { Knobs } from './knobs.ts';
import { SPLIT_STATE_NAMES, SplitState, isTerminalSplit } from './lifecycle.ts';
import { ExecJob, ExecSplit, ExecTask } from './records.ts';
import type { SplitBook } from './split-book.ts';
import {
  initTaskConcurrency,
  splitOfTaskFinished,
  type TargetsByClass,
} from './task-concurrency.ts';

/** Dispatches what is ready (dispatcher.ts). */
export interface Pump {
  pump(): void;
  /** Splits dispatched behind a running quantum and not started (`ExecutorOptions.pipeline`). */
  queuedBehind(): number;
}

/** Starts or stops the aging timer as jobs come and go (aging-ticker.ts). */
export interface Ticker {
  ensure(): void;
}

export class Bookkeeping {
  readonly admission = new Admission();
  /** Told every leaf split's queued time as it is admitted (`Executor.onAdmissionQueued`). */
  admissionQueued: WaitVisitor | null = null;
  private nextJobId = 1;
  private nextTaskId = 1;
  private nextSplitId = 1;

  constructor(
    private readonly backend: Backend,
    private readonly knobs: Knobs,
    private readonly live: SplitBook,
    private readonly book: JobBook,
    private readonly spans: SpanRing,
    private readonly trail: JobTrail,
    private readonly execStats: ExecutorStats,
    /** Recent succeeded splits' time per class, for the `slow-split` warning. */
    private readonly classTimes: ClassSplitTimes,
    /** Each ended task's split concurrency target, by class (task-concurrency.ts). */
    private readonly endedTargets: TargetsByClass,
    private readonly dispatcher: Pump,
    private readonly ticker: Ticker,
  ) {}

  // ─── arrivals and admission ──────────────────────────────────────────────────────────────

  /** Submits a job; returns its id. A job beyond `maxQueued` is born `rejected` (counted). */
  submitJob(spec: JobSpec): number {
    checkJobSpec(spec, this.knobs.cfg.maxDriversPerTask);
    return this.submitCheckedJob(spec);
  }

  /**
   * `submitJob` for a spec its caller built from parts it has checked already (the library's
   * `run`: task.ts checks the task, options.ts the options), so the schema is not parsed again
   * for every run.
   */
  submitCheckedJob(spec: JobSpec, owner?: unknown): number {
    let total = 0;
    for (const t of spec.tasks) total += t.splits.length;
    const job = this.newJob(
      spec.class,
      spec.basePriority ?? 50,
      spec.retries ?? 0,
      spec.tenant,
      owner,
    );
    const now = job.submitNanos;
    if (!this.admitJob(job, total, now)) return job.id;
    for (let index = 0; index < spec.tasks.length; index++) {
      const t = spec.tasks[index]!;
      this.newTask(job, index, t.open === true, t.maxDriversPerTask, t.outputBuffer, now);
    }
    for (let i = 0; i < spec.tasks.length; i++) {
      this.createSplits(job.taskAt(i), spec.tasks[i]!.splits, now);
    }
    this.afterArrivals(job);
    return job.id;
  }

  /**
   * A checked job of one task of one intermediate split (a library run), without the spec's
   * arrays: the same records, ids and events as `submitCheckedJob` of
   * `{ class, basePriority, tenant, tasks: [{ splits: [{ kind: 'intermediate', work }] }] }`.
   */
  submitOneSplit(
    cls: string,
    basePriority: number,
    tenant: string | undefined,
    work: SplitWork,
    owner?: unknown,
  ): number {
    const job = this.newJob(cls, basePriority, 0, tenant, owner);
    const now = job.submitNanos;
    if (!this.admitJob(job, 1, now)) return job.id;
    const task = this.newTask(job, 0, false, undefined, undefined, now);
    this.createSplit(task, false, work, now);
    this.afterArrivals(job);
    return job.id;
  }

  /**
   * What `maxQueued` bounds: splits not yet started — waiting for admission, in the ready queue,
   * blocked, retrying, or dispatched behind a running quantum (`pipeline`), which are queued in
   * every count the user sees (`splitsQueued`, the library's `runs.queued`, `pool.queueSize`).
   */
  private waitingSplits(): number {
    return this.live.pendingSplits() + this.dispatcher.queuedBehind();
  }

  private newJob(
    cls: string,
    basePriority: number,
    retries: number,
    tenantName: string | undefined,
    owner: unknown,
  ): ExecJob {
    const now = this.backend.now();
    const tenant = tenantName === undefined ? null : this.book.tenants.acquire(tenantName, now);
    const id = this.nextJobId++;
    const clsIndex = this.spans.internClass(cls);
    return new ExecJob(id, cls, clsIndex, basePriority, retries, now, tenant, owner);
  }

  /**
   * Starts `job` of `total` splits; false when `maxLivePerTenant` or `maxQueued` rejects it (its
   * end is told). The tenant's limit is checked first: it is the more specific reason.
   */
  private admitJob(job: ExecJob, total: number, now: number): boolean {
    const { maxLivePerTenant, maxQueued } = this.knobs.cfg;
    // The tenant's count already includes this job (`newJob` acquired it).
    if (
      maxLivePerTenant !== null &&
      job.tenant !== null &&
      job.tenant.liveJobs > maxLivePerTenant
    ) {
      const why = `maxLivePerTenant ${maxLivePerTenant} reached by tenant ${job.tenant.name}`;
      this.book.reject(job, now, why, 'maxLivePerTenant');
      return false;
    }
    if (this.waitingSplits() + total > maxQueued) {
      this.book.reject(job, now, `maxQueued ${maxQueued} reached`, 'maxQueued');
      return false;
    }
    this.book.start(job);
    this.trail.record(TrailKind.submit, job.id, -1, -1, now, 0, total);
    return true;
  }

  private newTask(
    job: ExecJob,
    index: number,
    open: boolean,
    maxDrivers: number | undefined,
    buffer: OutputBufferSpec | undefined,
    now: number,
  ): ExecTask {
    const task = new ExecTask(this.nextTaskId++, job, index, open);
    if (maxDrivers !== undefined) task.maxDrivers = maxDrivers;
    initTaskConcurrency(task, buffer, this.knobs.cfg, this.knobs.settings, now);
    if (task.open) job.openTasks++;
    this.admission.register(task);
    this.execStats.taskStarted(task);
    job.addTask(task);
    this.live.tasks.set(task.id, task);
    return task;
  }

  /** Adds splits to a live task (Trino's controller tops up leaf tasks). Returns their ids. */
  addSplits(taskId: number, splits: readonly SplitSpec[]): number[] {
    const task = this.liveTask(taskId);
    checkSplits(splits);
    // A graph job was admitted whole: it keeps at most its window of nodes live (one or two a
    // worker, executor-graph.ts), so its nodes may pass `maxQueued` by that much. Refused, they ended the graph run mid-way
    // whenever other jobs had filled the queue, recorded as cancelled by request.
    const admitted = task.job.ownsSplitFailures;
    if (!admitted && this.waitingSplits() + splits.length > this.knobs.cfg.maxQueued) {
      this.book.counts.rejectedSplits += splits.length;
      throw new SchedLabError(
        'QUEUE_FULL',
        `maxQueued ${this.knobs.cfg.maxQueued} reached`,
        'maxQueued',
      );
    }
    const ids = this.createSplits(task, splits, this.backend.now());
    this.afterArrivals(task.job);
    return ids;
  }

  /** Marks an open task complete: it ends once its splits have. */
  closeTask(taskId: number): void {
    const task = this.liveTask(taskId);
    if (!task.open) return;
    task.open = false;
    task.job.openTasks--;
    this.settleTask(task);
  }

  private liveTask(taskId: number): ExecTask {
    const task = this.live.tasks.get(taskId);
    if (task === undefined || task.job.state !== 'running') {
      throw new SchedLabError('UNKNOWN_ID', `no live task ${taskId}`, 'taskId');
    }
    return task;
  }

  private createSplits(task: ExecTask, specs: readonly SplitSpec[], now: number): number[] {
    const ids: number[] = [];
    for (const spec of specs)
      ids.push(this.createSplit(task, spec.kind === 'leaf', spec.work, now));
    return ids;
  }

  private createSplit(task: ExecTask, leaf: boolean, work: SplitWork, now: number): number {
    const id = this.nextSplitId++;
    const s = new ExecSplit(id, task.job, task, leaf, work, now, this.knobs.cfg.fairness);
    this.live.add(s);
    task.live.add(s);
    task.job.totalSplits++;
    if (leaf) this.admission.enqueue(task, s);
    else this.knobs.offer(s, now, 'new');
    return id;
  }

  private afterArrivals(job: ExecJob): void {
    const n = job.taskCount;
    for (let i = 0; i < n; i++) this.admit(job.taskAt(i));
    for (let i = 0; i < n; i++) this.settleTask(job.taskAt(i));
    this.ticker.ensure();
    this.dispatcher.pump();
  }

  /** Runs Trino admission; `focus` is the task whose counts just changed (admission.ts). */
  admit(focus?: ExecTask): void {
    // One object, refreshed per call (the knobs change live): none allocated per run.
    const limits = this.admitLimits;
    limits.guaranteedPerTask = this.knobs.cfg.guaranteedPerTask;
    limits.minDrivers = this.knobs.settings.minDrivers;
    limits.maxDriversPerTask = this.knobs.cfg.maxDriversPerTask;
    this.admission.admit(limits, this.startAdmitted, focus);
    this.countLeaves();
  }

  /** Tells the statistics the admitted leaf count; reads the clock only when it changed. */
  private countLeaves(): void {
    const running = this.admission.running;
    if (running !== this.execStats.leafCount)
      this.execStats.leafSplits(running, this.backend.now());
  }

  private readonly admitLimits = { guaranteedPerTask: 0, minDrivers: 0, maxDriversPerTask: 0 };

  private readonly startAdmitted = (split: ExecSplit): void => {
    const now = this.backend.now();
    // Its queued time ends here and its first wait starts (Trino's startSplit: queue offer).
    const queued = now - split.enqueuedAt;
    split.queuedNanos = queued;
    split.enqueuedAt = now;
    this.admissionQueued?.(split.job.clsIndex, queued, split.basePriority);
    this.trail.record(TrailKind.admitted, split.job.id, split.task.id, split.id, now, 0, queued);
    this.live.move(split, SplitState.queued);
    this.knobs.offer(split, now, 'new');
  };

  // ─── endings ─────────────────────────────────────────────────────────────────────────────

  /**
   * A split reaches a terminal state (or `cancelling`, for one still on a worker). `result` (a
   * user module's return value) goes to the split's end event, and to its job's when it is the
   * job's only split; nothing keeps it afterwards. `at`: the caller's reading of the clock, when
   * it has one (a quantum end's), so the ending does not read it again.
   */
  finishSplit(split: ExecSplit, to: SplitState, result?: unknown, at?: number): void {
    const wasAdmittedLeaf = split.leaf && split.state !== SplitState.waiting;
    const wasCancelling = split.state === SplitState.cancelling;
    this.live.move(split, to);
    if (!isTerminalSplit(to)) return;
    this.live.remove(split);
    // One reading of the clock for the whole ending (its trail entry, events and job end): the
    // clock is read per call (on threads a read allocates), and a tiny library run ends many a
    // millisecond.
    const now = at ?? this.backend.now();
    // Trino's splitComplete: the controller hears of it while the split still counts as running.
    const ran = to === SplitState.succeeded || to === SplitState.failed;
    const retarget =
      ran && !wasCancelling && splitOfTaskFinished(split.task, split.scheduledNanos, now);
    this.traceEnd(split, now);
    if (wasAdmittedLeaf && !wasCancelling) this.releaseLeaf(split.task);
    if (!wasCancelling) this.book.splitEnded(split, to, now, result);
    else this.book.offWorker(split, now);
    // A one-split job's result is its job's too, if the job ends just below.
    const jobResult = split.job.totalSplits === 1 ? result : undefined;
    if (split.task.live.delete(split)) this.settleTask(split.task, jobResult, now);
    if (split.leaf || retarget) this.admit(split.task);
  }

  /** A terminal split in the job trail, and a succeeded one's time in its class's sample. */
  private traceEnd(split: ExecSplit, now: number): void {
    const state = SPLIT_STATE_NAMES[split.state] as (typeof SPLIT_END_STATES)[number];
    if (state === 'succeeded') this.classTimes.record(split.job.clsIndex, split.scheduledNanos);
    const code = state === 'cancelled' ? 'CANCELLED' : split.errorCode;
    const t = split.task.id;
    const outcome = SPLIT_END_STATES.indexOf(state);
    this.trail.record(
      TrailKind.splitEnd,
      split.job.id,
      t,
      split.id,
      now,
      0,
      0,
      -1,
      0,
      outcome,
      code,
    );
  }

  /** An admitted leaf split of `task` no longer runs: its slot frees (counted for statistics). */
  private releaseLeaf(task: ExecTask): void {
    this.admission.release(task);
    this.countLeaves();
  }

  /** Ends `task` once nothing of it is live, and its job once all its tasks have ended. */
  private settleTask(task: ExecTask, jobResult?: unknown, at?: number): void {
    if (task.ended || task.open || task.live.size > 0) return;
    task.ended = true;
    task.job.taskEnded();
    this.live.tasks.delete(task.id);
    this.endedTargets.taskEnded(task);
    this.execStats.taskEnded(task);
    const job = task.job;
    const now = at ?? this.backend.now();
    this.book.taskEnded(
      task,
      job.state === 'running' ? 'succeeded' : (job.state as TaskEnd['state']),
      now,
    );
    if (job.state === 'running' && job.openTasks === 0 && job.allTasksEnded) {
      const failed = job.error !== undefined;
      this.book.end(job, failed ? 'failed' : 'succeeded', now, jobResult);
      this.ticker.ensure();
    }
  }

  /** Ends a live job; every split still live is cancelled (running ones cooperatively). */
  endJob(
    job: ExecJob,
    state: 'failed' | 'cancelled',
    reason: string,
    code: ErrorCode | undefined,
  ): void {
    job.error = reason;
    if (code !== undefined) job.errorCode = code;
    this.book.end(job, state, this.backend.now());
    for (let i = 0; i < job.taskCount; i++) {
      const task = job.taskAt(i);
      for (const s of this.admission.forget(task)) this.finishSplit(s, SplitState.cancelled);
      for (const s of [...task.live]) this.cancelSplit(s);
      if (task.open) {
        task.open = false;
        job.openTasks--;
      }
      this.settleTask(task);
    }
    this.ticker.ensure();
  }

  /**
   * Ends every split cancelled while its quantum ran (`cancelling`) as if that quantum had
   * returned: the backend closed, and a quantum still out then never returns.
   */
  endCancelling(): void {
    const out = [...this.live.splits.values()].filter((s) => s.state === SplitState.cancelling);
    for (const s of out) this.finishSplit(s, SplitState.cancelled);
  }

  private cancelSplit(s: ExecSplit): void {
    switch (s.state) {
      case SplitState.queued:
        this.knobs.queue.remove(s);
        break;
      case SplitState.blocked:
      case SplitState.retrying:
        s.cancelTimer?.();
        s.cancelTimer = null;
        break;
      case SplitState.running:
        // Stays on its worker until the quantum ends; the job no longer waits for it.
        this.finishSplit(s, SplitState.cancelling);
        s.task.live.delete(s);
        if (s.leaf) this.releaseLeaf(s.task);
        this.book.splitEnded(s, SplitState.cancelled, this.backend.now(), undefined, true);
        if (this.knobs.cfg.cancelRunning === 'cooperative') this.backend.cancel(s.id);
        // Trino's removeTask: the runner finishes `processFor` and is charged the whole quantum;
        // the backend is told once it has ended, to drop what it keeps for the split.
        else s.cancelAfterQuantum = true;
        return;
      default:
        return;
    }
    // The split never runs again: the backend may drop what it keeps for it (a user module's
    // yielded state on the threads backend).
    this.backend.cancel(s.id);
    this.finishSplit(s, SplitState.cancelled);
  }
}
