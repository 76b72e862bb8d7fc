/**
 * The executor's loop (DESIGN.md §4), under its public surface (executor.ts): whenever a worker
 * is idle and a split is ready it takes one and dispatches it for one quantum; when the quantum
 * ends it charges the time to the split and its fairness groups, tells the policy, records a
 * Gantt span, then re-offers, parks (blocked), finishes, fails or retries the split. Leaf splits
 * pass Trino's admission first (admission.ts). Lifecycles are checked on every move (lifecycle.ts).
 */
import type { EngineConfig } from '../../../shared/config.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import { createPolicy, policyLevel, type PolicyKnobs } from '../../core/policies.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend, QuantumEnd } from '../backend.ts';
import { Admission } from './admission.ts';
import { JobBook, type TaskEnd } from './job-book.ts';
import type { SplitSpec } from './job-spec.ts';
import { SplitState, checkSplitTransition, isTerminalSplit } from './lifecycle.ts';
import { ExecJob, ExecSplit, ExecTask } from './records.ts';
import { EventRing, SpanRing } from './rings.ts';
import { toSettings, type EngineSettings } from './settings.ts';

export interface ExecutorOptions {
  /** Gantt spans kept (ring); older ones are dropped and counted by readers. */
  readonly spanCapacity?: number;
  readonly eventCapacity?: number;
  /** Ended jobs remembered for job tables. */
  readonly recentJobs?: number;
}

export abstract class ExecutorCore {
  readonly spans: SpanRing;
  readonly events: EventRing;
  protected cfg: EngineConfig;
  protected settings: EngineSettings;
  protected queue: ReadyQueue<ExecSplit>;
  protected readonly admission = new Admission();
  protected readonly book: JobBook;
  protected readonly splits = new Map<number, ExecSplit>();
  protected readonly tasks = new Map<number, ExecTask>();
  /** Longest requeue wait per class (by the span ring's class index), ns. */
  protected readonly requeueWaitMax: number[] = [];
  protected readonly runningOn: (ExecSplit | null)[] = [];
  protected readonly stateCounts = new Int32Array(9);
  protected nextJobId = 1;
  protected nextTaskId = 1;
  protected nextSplitId = 1;
  protected pumping = false;
  protected isPaused = false;
  protected closed = false;
  protected tickCancel: (() => void) | null = null;
  protected drainWaiters: (() => void)[] = [];
  protected readonly c = {
    quanta: 0,
    retries: 0,
    busyNanos: 0,
    overrunNanos: 0,
    staleEnds: 0,
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
    this.book = new JobBook(options.recentJobs ?? 256);
    this.queue = createPolicy<ExecSplit>(config.policy, this.policyKnobs());
    if (backend.workerCount !== config.workers) backend.setWorkerCount(config.workers);
    // onQuantumEnd keeps nothing of `end`: the backend may reuse one object for every quantum.
    backend.setListener({ quantumEnd: (end) => this.onQuantumEnd(end), transientEnd: true });
  }

  // ─── internals: arrivals and admission ───────────────────────────────────────────────────

  protected createSplits(task: ExecTask, specs: readonly SplitSpec[], now: number): number[] {
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

  protected afterArrivals(job: ExecJob): void {
    for (const task of job.tasks) this.admit(task);
    for (const task of job.tasks) this.settleTask(task);
    this.ensureTicker();
    this.pump();
  }

  /** Runs Trino admission; `focus` is the task whose counts just changed (admission.ts). */
  protected admit(focus?: ExecTask): void {
    const limits = {
      guaranteedPerTask: this.cfg.guaranteedPerTask,
      minDrivers: this.settings.minDrivers,
      maxDriversPerTask: this.cfg.maxDriversPerTask,
    };
    this.admission.admit(limits, this.startAdmitted, focus);
  }

  private readonly startAdmitted = (split: ExecSplit): void => {
    this.move(split, SplitState.queued);
    this.queue.offer(split, this.backend.now(), 'new');
  };

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

  // ─── internals: dispatch and quantum end ─────────────────────────────────────────────────

  protected pump(): void {
    if (this.pumping || this.isPaused || this.closed || this.queue.size === 0) return;
    this.pumping = true;
    try {
      const backend = this.backend;
      const now = backend.now();
      if (backend.firstIdleWorker !== undefined) {
        // Same order as the array below (lowest idle first); dispatching marks the worker busy.
        for (let w = backend.firstIdleWorker(); w >= 0; w = backend.firstIdleWorker()) {
          const split = this.queue.take(now);
          if (split === null) break;
          this.dispatch(split, w, now);
        }
        return;
      }
      const idle = backend.idleWorkers();
      for (let i = 0; i < idle.length; i++) {
        const split = this.queue.take(now);
        if (split === null) break;
        this.dispatch(split, idle[i]!, now);
      }
    } finally {
      this.pumping = false;
    }
  }

  protected dispatch(split: ExecSplit, worker: number, now: number): void {
    this.move(split, SplitState.running);
    const wait = now - split.enqueuedAt;
    split.waitNanos += wait;
    if (split.requeuedAt >= 0) this.noteRequeueWait(split.job.clsIndex, now - split.requeuedAt);
    split.worker = worker;
    split.dispatchedAt = now;
    split.level = policyLevel(this.queue, split);
    this.runningOn[worker] = split;
    const backend = this.backend;
    if (backend.startQuantum !== undefined) {
      const quantum = this.settings.dispatchQuantumNanos;
      backend.startQuantum(split.id, worker, quantum, split.work, split.doneNanos);
      return;
    }
    backend.start({
      splitId: split.id,
      workerId: worker,
      quantumNanos: this.settings.dispatchQuantumNanos,
      work: split.work,
      doneNanos: split.doneNanos,
    });
  }

  protected onQuantumEnd(end: QuantumEnd): void {
    const split = this.runningOn[end.workerId];
    if (split === undefined || split === null || split.id !== end.splitId) {
      // A backend reporting a split we did not start there: ignore it (never run a split twice)
      // and count it, since it means a backend bug (Counters.staleEnds, 0 when all is well).
      this.c.staleEnds++;
      return;
    }
    this.runningOn[end.workerId] = null;
    const ran = end.ranNanos;
    const now = this.backend.now();
    this.c.quanta++;
    this.c.busyNanos += ran;
    if (ran > this.settings.dispatchQuantumNanos)
      this.c.overrunNanos += ran - this.settings.dispatchQuantumNanos;
    split.addScheduledNanos(ran);
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

  /**
   * A split back in the queue after running (yielded, woken from blocked, or retried after its
   * backoff) waits there from that moment to its next quantum: pure queue wait, the longest such
   * gap per class is what starvation looks like. The clock starts when the split is ready again,
   * so a blocked split's sleep and a retry's backoff are not counted.
   */
  private noteRequeueWait(clsIndex: number, wait: number): void {
    const max = this.requeueWaitMax;
    while (max.length <= clsIndex) max.push(0);
    if (wait > max[clsIndex]!) max[clsIndex] = wait;
  }

  /**
   * The dispatch quantum just got shorter: quanta running longer than it (run-to-completion ones
   * under non-preemptive `priority`, above all) end at most one new quantum after they started,
   * so the new policy gets their workers. The backend takes min(its end, start + quantum), so
   * asking every running worker is safe; one without `shortenQuantum` lets them run out.
   */
  protected shortenRunning(): void {
    const backend = this.backend;
    if (backend.shortenQuantum === undefined) return;
    const quantum = this.settings.dispatchQuantumNanos;
    for (let w = 0; w < this.runningOn.length; w++) {
      if (this.runningOn[w]?.state === SplitState.running) backend.shortenQuantum(w, quantum);
    }
  }

  protected busyWorkers(): number {
    return (
      (this.stateCounts[SplitState.running] ?? 0) + (this.stateCounts[SplitState.cancelling] ?? 0)
    );
  }

  protected afterQuantum(split: ExecSplit, end: QuantumEnd, now: number): void {
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
        this.finishSplit(split, SplitState.succeeded, end.result);
        return;
      case 'failed':
        this.failOrRetry(split, end.error ?? 'quantum ended failed', end.errorCode, now);
        return;
      case 'cancelled': // the backend stopped it unasked (the executor's cancels end above)
        this.failOrRetry(split, end.error ?? 'quantum ended cancelled', 'CANCELLED', now);
        return;
    }
  }

  protected failOrRetry(
    split: ExecSplit,
    reason: string,
    code: ErrorCode | undefined,
    now: number,
  ): void {
    split.errorCode = code ?? 'KERNEL_FAILED';
    if (split.failures >= split.job.retries) {
      const job = split.job;
      if (job.error === undefined) {
        job.error = `split ${split.id}: ${reason}`;
        job.errorCode = split.errorCode;
      }
      this.finishSplit(split, SplitState.failed);
      if (job.state === 'running') this.endJob(job, 'failed', job.error, job.errorCode);
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

  protected wake(split: ExecSplit, reason: 'woken' | 'retry'): void {
    split.cancelTimer = null;
    if (split.state !== SplitState.blocked && split.state !== SplitState.retrying) return;
    const now = this.backend.now();
    if (reason === 'retry') split.readySince = now; // aging restarts: a failing task must not climb
    this.requeue(split, now, reason);
    this.pump();
  }

  protected requeue(split: ExecSplit, now: number, reason: 'requeue' | 'woken' | 'retry'): void {
    this.move(split, SplitState.queued);
    split.enqueuedAt = now;
    split.requeuedAt = now;
    this.queue.offer(split, now, reason);
  }

  // ─── internals: endings ──────────────────────────────────────────────────────────────────

  /**
   * A split reaches a terminal state (or `cancelling`, for one still on a worker). `result` (a
   * user module's return value) goes to the split's end event, and to its job's when it is the
   * job's only split; nothing keeps it afterwards.
   */
  protected finishSplit(split: ExecSplit, to: SplitState, result?: unknown): void {
    const wasAdmittedLeaf = split.leaf && split.state !== SplitState.waiting;
    const wasCancelling = split.state === SplitState.cancelling;
    this.move(split, to);
    if (!isTerminalSplit(to)) return;
    this.splits.delete(split.id);
    if (wasAdmittedLeaf && !wasCancelling) this.admission.release(split.task);
    if (!wasCancelling) this.book.splitEnded(split, to, this.backend.now(), result);
    const jobResult = result !== undefined && split.job.totalSplits === 1;
    if (jobResult) split.job.result = result; // read by the job's end, if it ends just below
    if (split.task.live.delete(split)) this.settleTask(split.task);
    if (jobResult) split.job.result = undefined; // an open task: the job did not end with it
    if (split.leaf) this.admit(split.task);
  }

  protected settleTask(task: ExecTask): void {
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
      const now = this.backend.now();
      this.book.end(job, failed ? 'failed' : 'succeeded', now, job.error, job.errorCode);
      this.ensureTicker();
    }
  }

  /** Ends a live job; every split still live is cancelled (running ones cooperatively). */
  protected endJob(
    job: ExecJob,
    state: 'failed' | 'cancelled',
    reason: string,
    code: ErrorCode | undefined,
  ): void {
    this.book.end(job, state, this.backend.now(), reason, code);
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

  protected cancelSplit(s: ExecSplit): void {
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
    // The split never runs again: the backend may drop what it keeps for it (a user module's
    // yielded state on the threads backend).
    this.backend.cancel(s.id);
    this.finishSplit(s, SplitState.cancelled);
  }

  /** Records a marker on the timeline (workload loads, presets). */
  record(kind: string, detail: string): void {
    this.events.push({ timeNanos: this.backend.now(), kind, detail });
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

  protected move(split: ExecSplit, to: SplitState): void {
    checkSplitTransition(split.id, split.state, to);
    this.stateCounts[split.state]!--;
    this.stateCounts[to]!++;
    split.state = to;
  }
}
