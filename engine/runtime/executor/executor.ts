/**
 * The executor (DESIGN.md §4): owns the policy, the jobs → tasks → splits and their lifecycles
 * (lifecycle.ts), and drives a `Backend`. Whenever a worker is idle and a split is ready it takes
 * one and dispatches it for one quantum; when the quantum ends it charges the time to the split
 * and its fairness groups, tells the policy, records a Gantt span, then re-offers, parks (blocked),
 * finishes, fails or retries the split. Leaf splits pass Trino's admission first (admission.ts).
 *
 * Every knob changes live through `configure`, without losing or duplicating a split: a policy
 * switch drains the old queue into the new one (`'moved'`), a fairness change re-points groups.
 * Each change is recorded as an event with its backend time.
 */
import {
  DEFAULT_ENGINE_CONFIG,
  type EngineConfig,
  type EngineConfigPatch,
  type PolicyName,
} from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Counters, LevelRow, WorkerRow } from '../../../shared/protocol.ts';
import { configurePolicy, createPolicy, policyLevel } from '../../core/policies.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend, QuantumEnd } from '../backend.ts';
import { Admission } from './admission.ts';
import { JobBook, type JobEnd, type SplitEnd, type TaskEnd } from './job-book.ts';
import {
  checkJobSpec,
  checkPriority,
  checkSplits,
  type JobSpec,
  type SplitSpec,
} from './job-spec.ts';
import { SplitState, checkSplitTransition, isTerminalSplit } from './lifecycle.ts';
import { ExecJob, ExecSplit, ExecTask, groupFor } from './records.ts';
import { EventRing, SpanRing } from './rings.ts';
import { mergeConfig, toSettings, type EngineSettings } from './settings.ts';

export type { JobEnd, SplitEnd, TaskEnd };

export interface ExecutorOptions {
  /** Gantt spans kept (ring); older ones are dropped and counted by readers. */
  readonly spanCapacity?: number;
  readonly eventCapacity?: number;
  /** Ended jobs remembered for job tables. */
  readonly recentJobs?: number;
}

type Listener<T> = (value: T) => void;

export class Executor {
  readonly spans: SpanRing;
  readonly events: EventRing;
  private cfg: EngineConfig;
  private settings: EngineSettings;
  private queue: ReadyQueue<ExecSplit>;
  private readonly admission = new Admission();
  private readonly book: JobBook;
  private readonly splits = new Map<number, ExecSplit>();
  private readonly tasks = new Map<number, ExecTask>();
  private readonly runningOn: (ExecSplit | null)[] = [];
  private readonly stateCounts = new Int32Array(9);
  private nextJobId = 1;
  private nextTaskId = 1;
  private nextSplitId = 1;
  private pumping = false;
  private isPaused = false;
  private closed = false;
  private tickCancel: (() => void) | null = null;
  private drainWaiters: (() => void)[] = [];
  private readonly c = {
    quanta: 0,
    retries: 0,
    busyNanos: 0,
    overrunNanos: 0,
    staleEnds: 0,
  };

  constructor(
    readonly backend: Backend,
    config: EngineConfigPatch | unknown = {},
    options: ExecutorOptions = {},
  ) {
    // Without an explicit worker count the executor adopts the backend's (threads: one per core).
    const explicitWorkers = typeof config === 'object' && config !== null && 'workers' in config;
    const defaults = explicitWorkers
      ? DEFAULT_ENGINE_CONFIG
      : { ...DEFAULT_ENGINE_CONFIG, workers: Math.min(256, Math.max(1, backend.workerCount)) };
    this.cfg = mergeConfig(defaults, config);
    this.settings = toSettings(this.cfg);
    this.spans = new SpanRing(options.spanCapacity ?? 65_536);
    this.events = new EventRing(options.eventCapacity ?? 1024);
    this.book = new JobBook(options.recentJobs ?? 256);
    this.queue = createPolicy<ExecSplit>(this.cfg.policy, this.policyKnobs());
    if (backend.workerCount !== this.cfg.workers) backend.setWorkerCount(this.cfg.workers);
    backend.setListener({ quantumEnd: (end) => this.onQuantumEnd(end) });
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

  get counters(): Counters {
    const s = this.stateCounts;
    const b = this.book.counts;
    return {
      ...b,
      splitsWaiting: s[SplitState.waiting] ?? 0,
      splitsQueued: s[SplitState.queued] ?? 0,
      splitsRunning: (s[SplitState.running] ?? 0) + (s[SplitState.cancelling] ?? 0),
      splitsBlocked: s[SplitState.blocked] ?? 0,
      splitsRetrying: s[SplitState.retrying] ?? 0,
      quanta: this.c.quanta,
      retries: this.c.retries,
      busyNanos: this.c.busyNanos,
      overrunNanos: this.c.overrunNanos,
    };
  }

  levels(): LevelRow[] {
    return this.queue.levels().map((l) => {
      const min = (l as { levelMinPriority?: number }).levelMinPriority;
      return {
        level: l.level,
        label: l.label,
        depth: l.depth,
        scheduledNanos: l.scheduledNanos,
        selections: l.selections,
        minPriority: min ?? null,
      };
    });
  }

  workers(): WorkerRow[] {
    const rows: WorkerRow[] = [];
    const idle = new Set(this.backend.idleWorkers());
    const n = Math.max(this.backend.workerCount, this.runningOn.length);
    for (let id = 0; id < n; id++) {
      const s = this.runningOn[id] ?? null;
      if (s === null && id >= this.backend.workerCount) continue;
      rows.push({
        id,
        state:
          s !== null
            ? id >= this.backend.workerCount
              ? 'retiring'
              : 'running'
            : idle.has(id)
              ? 'idle'
              : 'retiring',
        splitId: s ? s.id : null,
        jobId: s ? s.job.id : null,
        sinceNanos: s ? s.dispatchedAt : null,
      });
    }
    return rows;
  }

  /** Live and recently ended jobs (live first), at most `limit`. */
  jobs(limit = 200): ReturnType<JobBook['rows']> {
    return this.book.rows(limit);
  }

  /** Jain's fairness index across live jobs (job-book.ts). */
  fairness(): { jain: number; jobs: number } {
    return this.book.jain(this.backend.now());
  }

  /** Task ids of a live job, in spec order (for `addSplits`). */
  taskIds(jobId: number): number[] {
    const job = this.book.live(jobId);
    return job ? job.tasks.map((t) => t.id) : [];
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

  // ─── submitting ──────────────────────────────────────────────────────────────────────────

  /** Submits a job; returns its id. A job beyond `maxQueued` is born `rejected` (counted). */
  submitJob(spec: JobSpec): number {
    this.ensureOpen();
    checkJobSpec(spec);
    const now = this.backend.now();
    const id = this.nextJobId++;
    const total = spec.tasks.reduce((n, t) => n + t.splits.length, 0);
    const job = new ExecJob(
      id,
      spec.class,
      this.spans.internClass(spec.class),
      spec.basePriority ?? 50,
      spec.retries ?? 0,
      now,
    );
    if (this.pendingSplits() + total > this.cfg.maxQueued) {
      this.book.reject(job, now, `maxQueued ${this.cfg.maxQueued} reached`);
      return id;
    }
    this.book.start(job);
    spec.tasks.forEach((t, index) => {
      const task = new ExecTask(this.nextTaskId++, job, index, t.open === true);
      if (task.open) job.openTasks++;
      job.tasks.push(task);
      this.tasks.set(task.id, task);
    });
    spec.tasks.forEach((t, i) => this.createSplits(job.tasks[i]!, t.splits, now));
    this.afterArrivals(job);
    return id;
  }

  /** Adds splits to a live task (Trino's controller tops up leaf tasks). Returns their ids. */
  addSplits(taskId: number, splits: readonly SplitSpec[]): number[] {
    this.ensureOpen();
    const task = this.liveTask(taskId);
    checkSplits(splits, 'splits');
    if (this.pendingSplits() + splits.length > this.cfg.maxQueued) {
      this.book.counts.rejectedSplits += splits.length;
      throw new SchedLabError('QUEUE_FULL', `maxQueued ${this.cfg.maxQueued} reached`, 'maxQueued');
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

  // ─── controlling ─────────────────────────────────────────────────────────────────────────

  /** Cancels a live job: queued splits leave the queue, running ones stop at their next unit. */
  cancelJob(jobId: number): boolean {
    const job = this.book.live(jobId);
    if (job === undefined) return false;
    this.endJob(job, 'cancelled', 'cancelled by request');
    this.record('cancel', `job ${jobId}`);
    return true;
  }

  reprioritize(jobId: number, priority: number): void {
    checkPriority(priority, 'priority');
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
    this.pump();
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
    const next = mergeConfig(this.cfg, patch);
    const prev = this.cfg;
    const changed = (Object.keys(next) as (keyof EngineConfig)[]).filter(
      (k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k]),
    );
    if (changed.length === 0) return prev;
    this.cfg = next;
    this.settings = toSettings(next);
    if (next.workers !== prev.workers) this.backend.setWorkerCount(next.workers);
    if (next.policy !== prev.policy) this.switchPolicy(next.policy);
    else configurePolicy(this.queue, this.policyKnobs());
    if (next.fairness !== prev.fairness) this.regroup();
    for (const k of changed) {
      const kind = k === 'policy' ? 'policy' : k === 'workers' ? 'workers' : 'config';
      this.record(kind, `${k}: ${JSON.stringify(prev[k])} → ${JSON.stringify(next[k])}`);
    }
    this.admit();
    this.ensureTicker();
    this.pump();
    return next;
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
    for (const job of this.book.liveJobs()) this.endJob(job, 'cancelled', 'engine closed');
    this.closed = true;
    this.tickCancel?.();
    this.tickCancel = null;
    await this.backend.close();
  }

  /** Records a marker on the timeline (workload loads, presets). */
  record(kind: string, detail: string): void {
    this.events.push({ timeNanos: this.backend.now(), kind, detail });
  }

  // ─── internals: arrivals and admission ───────────────────────────────────────────────────

  private createSplits(task: ExecTask, specs: readonly SplitSpec[], now: number): number[] {
    const ids: number[] = [];
    for (const spec of specs) {
      const id = this.nextSplitId++;
      const leaf = spec.kind === 'leaf';
      const s = new ExecSplit(id, id, task.job, task, leaf, spec.work, now, this.cfg.fairness);
      this.splits.set(id, s);
      task.live.add(s);
      task.job.totalSplits++;
      this.stateCounts[s.state]!++;
      if (leaf) this.admission.enqueue(task, s);
      else this.queue.offer(s, now, 'new');
      ids.push(id);
    }
    return ids;
  }

  private afterArrivals(job: ExecJob): void {
    this.admit();
    for (const task of job.tasks) this.settleTask(task);
    this.ensureTicker();
    this.pump();
  }

  private admit(): void {
    const s = this.settings;
    this.admission.admit(
      {
        guaranteedPerTask: this.cfg.guaranteedPerTask,
        minDrivers: s.minDrivers,
        maxDriversPerTask: this.cfg.maxDriversPerTask,
      },
      (split) => {
        const now = this.backend.now();
        this.move(split, SplitState.queued);
        this.queue.offer(split, now, 'new');
      },
    );
  }

  /** Splits holding a place in the bounded queue: everything not running and not ended. */
  private pendingSplits(): number {
    const c = this.stateCounts;
    return (
      (c[SplitState.waiting] ?? 0) +
      (c[SplitState.queued] ?? 0) +
      (c[SplitState.blocked] ?? 0) +
      (c[SplitState.retrying] ?? 0)
    );
  }

  // ─── internals: dispatch and quantum end ─────────────────────────────────────────────────

  private pump(): void {
    if (this.pumping || this.isPaused || this.closed || this.queue.size === 0) return;
    this.pumping = true;
    try {
      const idle = this.backend.idleWorkers();
      const now = this.backend.now();
      for (let i = 0; i < idle.length; i++) {
        const split = this.queue.take(now);
        if (split === null) break;
        this.dispatch(split, idle[i]!, now);
      }
    } finally {
      this.pumping = false;
    }
  }

  private dispatch(split: ExecSplit, worker: number, now: number): void {
    this.move(split, SplitState.running);
    split.waitNanos += now - split.enqueuedAt;
    split.worker = worker;
    split.dispatchedAt = now;
    split.level = policyLevel(this.queue, split);
    this.runningOn[worker] = split;
    this.backend.start({
      splitId: split.id,
      workerId: worker,
      quantumNanos: this.settings.quantumNanos,
      work: split.work,
      doneNanos: split.doneNanos,
    });
  }

  private onQuantumEnd(end: QuantumEnd): void {
    const split = this.runningOn[end.workerId];
    if (split === undefined || split === null || split.id !== end.splitId) {
      this.c.staleEnds++; // a backend reporting a split we did not start: ignore, never double-run
      return;
    }
    this.runningOn[end.workerId] = null;
    const ran = end.ranNanos;
    const now = this.backend.now();
    this.c.quanta++;
    this.c.busyNanos += ran;
    if (ran > this.settings.quantumNanos) this.c.overrunNanos += ran - this.settings.quantumNanos;
    split.scheduledNanos += ran;
    split.ownGroup.scheduledNanos += ran;
    split.task.group.scheduledNanos += ran;
    split.job.group.scheduledNanos += ran;
    split.job.scheduledNanos += ran;
    split.doneNanos += end.workNanos;
    this.queue.charge(split, ran, now);
    this.spans.record(
      end.workerId,
      end.startNanos,
      end.endNanos,
      split.job.id,
      split.task.id,
      split.id,
      split.level,
      end.outcome,
      split.job.clsIndex,
    );
    if (split.state === SplitState.cancelling) {
      this.finishSplit(split, SplitState.cancelled);
    } else {
      this.afterQuantum(split, end, now);
    }
    this.pump();
    if (this.drainWaiters.length > 0 && this.book.counts.live === 0 && this.busyWorkers() === 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const fn of waiters) fn();
    }
  }

  private busyWorkers(): number {
    return (
      (this.stateCounts[SplitState.running] ?? 0) + (this.stateCounts[SplitState.cancelling] ?? 0)
    );
  }

  private afterQuantum(split: ExecSplit, end: QuantumEnd, now: number): void {
    switch (end.outcome) {
      case 'yielded':
        this.requeue(split, now, 'requeue');
        return;
      case 'blocked': {
        this.move(split, SplitState.blocked);
        const wakeAt = now + Math.max(0, end.blockedNanos ?? 0);
        split.cancelTimer = this.backend.setTimer(wakeAt, () => this.wake(split, 'woken'));
        return;
      }
      case 'finished':
        this.finishSplit(split, SplitState.succeeded);
        return;
      case 'failed':
      case 'cancelled':
        this.failOrRetry(split, end.error ?? `quantum ended ${end.outcome}`, now);
        return;
    }
  }

  private failOrRetry(split: ExecSplit, reason: string, now: number): void {
    if (split.failures >= split.job.retries) {
      const job = split.job;
      job.error ??= `split ${split.id}: ${reason}`;
      this.finishSplit(split, SplitState.failed);
      if (job.state === 'running') this.endJob(job, 'failed', job.error);
      return;
    }
    const s = this.settings;
    const backoff = Math.min(
      s.retryBackoffMaxNanos,
      s.retryBackoffNanos * this.cfg.retryBackoffMultiplier ** split.failures,
    );
    split.failures++;
    this.c.retries++;
    this.move(split, SplitState.retrying);
    split.doneNanos = 0; // a failed attempt's work is lost; the retry starts over
    split.cancelTimer = this.backend.setTimer(now + Math.round(backoff), () =>
      this.wake(split, 'retry'),
    );
  }

  private wake(split: ExecSplit, reason: 'woken' | 'retry'): void {
    split.cancelTimer = null;
    if (split.state !== SplitState.blocked && split.state !== SplitState.retrying) return;
    const now = this.backend.now();
    if (reason === 'retry') split.readySince = now; // aging restarts: a failing task must not climb
    this.requeue(split, now, reason);
    this.pump();
  }

  private requeue(split: ExecSplit, now: number, reason: 'requeue' | 'woken' | 'retry'): void {
    this.move(split, SplitState.queued);
    split.enqueuedAt = now;
    this.queue.offer(split, now, reason);
  }

  // ─── internals: endings ──────────────────────────────────────────────────────────────────

  /** A split reaches a terminal state (or `cancelling`, for one still on a worker). */
  private finishSplit(split: ExecSplit, to: SplitState): void {
    const wasAdmittedLeaf = split.leaf && split.state !== SplitState.waiting;
    const wasCancelling = split.state === SplitState.cancelling;
    this.move(split, to);
    if (!isTerminalSplit(to)) return;
    this.splits.delete(split.id);
    if (wasAdmittedLeaf && !wasCancelling) this.admission.release(split.task);
    if (!wasCancelling) this.book.splitEnded(split, to, this.backend.now());
    if (split.task.live.delete(split)) this.settleTask(split.task);
    if (split.leaf) this.admit();
  }

  private settleTask(task: ExecTask): void {
    if (task.ended || task.open || task.live.size > 0) return;
    task.ended = true;
    this.tasks.delete(task.id);
    const job = task.job;
    this.book.taskEnded(
      task,
      job.state === 'running' ? 'succeeded' : (job.state as TaskEnd['state']),
      this.backend.now(),
    );
    if (job.state === 'running' && job.openTasks === 0 && job.tasks.every((t) => t.ended)) {
      const failed = job.error !== undefined;
      this.book.end(job, failed ? 'failed' : 'succeeded', this.backend.now(), job.error);
      this.ensureTicker();
    }
  }

  /** Ends a live job; every split still live is cancelled (running ones cooperatively). */
  private endJob(job: ExecJob, state: 'failed' | 'cancelled', reason: string): void {
    this.book.end(job, state, this.backend.now(), reason);
    for (const task of job.tasks) {
      for (const s of this.admission.forget(task)) this.finishSplit(s, SplitState.cancelled);
      for (const s of [...task.live]) this.cancelSplit(s);
      if (task.open) {
        task.open = false;
        job.openTasks--;
      }
      this.settleTask(task);
    }
    this.ensureTicker();
  }

  private cancelSplit(s: ExecSplit): void {
    switch (s.state) {
      case SplitState.queued:
        this.queue.remove(s);
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
        if (s.leaf) this.admission.release(s.task);
        this.book.splitEnded(s, SplitState.cancelled, this.backend.now());
        this.backend.cancel(s.id);
        return;
      default:
        return;
    }
    this.finishSplit(s, SplitState.cancelled);
  }

  // ─── internals: live reconfiguration ─────────────────────────────────────────────────────

  private switchPolicy(name: PolicyName): void {
    const now = this.backend.now();
    const moved = this.queue.drain();
    this.queue = createPolicy<ExecSplit>(name, this.policyKnobs());
    for (const s of moved) this.queue.offer(s, now, 'moved');
  }

  /** Fairness changed: every live split joins its new group; queued ones are re-offered. */
  private regroup(): void {
    const now = this.backend.now();
    const moved = this.queue.drain();
    for (const s of this.splits.values()) {
      s.group = groupFor(s, this.cfg.fairness);
      s.priority = s.group.priority;
    }
    for (const s of moved) this.queue.offer(s, now, 'moved');
  }

  private policyKnobs() {
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
  private ensureTicker(): void {
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

  private move(split: ExecSplit, to: SplitState): void {
    checkSplitTransition(split.id, split.state, to);
    this.stateCounts[split.state]!--;
    this.stateCounts[to]!++;
    split.state = to;
  }

  private liveTask(taskId: number): ExecTask {
    const task = this.tasks.get(taskId);
    if (task === undefined || task.job.state !== 'running') {
      throw new SchedLabError('UNKNOWN_ID', `no live task ${taskId}`, 'taskId');
    }
    return task;
  }

  private ensureOpen(): void {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the executor is closed', 'executor');
  }
}
