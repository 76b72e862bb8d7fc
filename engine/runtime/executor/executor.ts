/**
 * The executor's public surface (DESIGN.md §4): submit jobs, control them, reconfigure live and
 * read its state. The loop itself (dispatch, quantum ends, endings) is `ExecutorCore`.
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
import { configurePolicy, createPolicy } from '../../core/policies.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend } from '../backend.ts';
import { ExecutorCore, type ExecutorOptions } from './executor-core.ts';
import type { JobBook, JobEnd, SplitEnd, TaskEnd } from './job-book.ts';
import {
  checkJobSpec,
  checkPriority,
  checkSplits,
  type JobSpec,
  type SplitSpec,
} from './job-spec.ts';
import { SplitState } from './lifecycle.ts';
import { ExecJob, ExecSplit, ExecTask, groupFor } from './records.ts';
import { mergeConfig, toSettings } from './settings.ts';

export type { ExecutorOptions, JobEnd, SplitEnd, TaskEnd };

type Listener<T> = (value: T) => void;

export class Executor extends ExecutorCore {
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
      staleEnds: this.c.staleEnds,
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

  /**
   * One row per worker: `running` a split, `idle`, `retiring` (beyond a lowered count, finishing
   * its quantum) or `starting` (within the count but not yet able to take work: booting, or
   * replacing a worker that died and waiting out its restart backoff).
   */
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
              : 'starting',
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
    const now = this.backend.now();
    const running = new Map<ExecJob, number>();
    for (const s of this.runningOn) {
      if (s) running.set(s.job, (running.get(s.job) ?? 0) + (now - s.dispatchedAt));
    }
    return this.book.jain(now, running);
  }

  /** Longest current wait (ns) of a split that is waiting to run (not running, not blocked). */
  oldestWaitNanos(): number {
    const now = this.backend.now();
    let oldest = 0;
    for (const s of this.splits.values()) {
      if (s.state === SplitState.queued || s.state === SplitState.waiting) {
        if (now - s.enqueuedAt > oldest) oldest = now - s.enqueuedAt;
      }
    }
    return oldest;
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
    this.endJob(job, 'cancelled', 'cancelled by request', 'CANCELLED');
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
    const prevQuantum = this.settings.dispatchQuantumNanos;
    this.cfg = next;
    this.settings = toSettings(next);
    if (next.workers !== prev.workers) this.backend.setWorkerCount(next.workers);
    if (next.policy !== prev.policy) this.switchPolicy(next.policy);
    else configurePolicy(this.queue, this.policyKnobs());
    if (next.fairness !== prev.fairness) this.regroup();
    if (this.settings.dispatchQuantumNanos < prevQuantum) this.shortenRunning();
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
    for (const job of this.book.liveJobs()) {
      this.endJob(job, 'cancelled', 'engine closed', 'CANCELLED');
    }
    this.closed = true;
    this.tickCancel?.();
    this.tickCancel = null;
    await this.backend.close();
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
