/**
 * Quantum ends (docs/design.md §4): each ended quantum is charged to its split, its fairness
 * groups and the policy (the quantum's wall time, or its CPU time under `chargeTime: 'cpu'`),
 * counted, recorded as a Gantt span and in the job trail; then the split is re-offered, parked
 * (blocked), finished, failed or retried after a backoff. The worker it freed takes its next
 * queued split (dispatcher.ts) and the dispatcher runs again. Endings themselves (a split's,
 * its task's, its job's) are the bookkeeping's (executor-bookkeeping.ts), reached through the
 * narrow `SplitEndings`.
 */
import type { ErrorCode } from '../../../shared/errors.ts';
import { outcomeIndex } from '../../../shared/lib/outcomes.ts';
import type { SpanRing } from '../../../shared/lib/span-ring.ts';
import type { Backend, ErrorCause, QuantumEnd } from '../backend.ts';
import type { Counters } from '../../../shared/protocol.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { QuantumWallVisitor } from './executor-options.ts';
import type { ExecutorStats } from './executor-stats.ts';
import type { JobBook } from './job-book.ts';
import type { JobTrail } from './job-trail.ts';
import type { Knobs } from './knobs.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecJob, ExecSplit } from './records.ts';
import type { SplitBook } from './split-book.ts';
import { quantumOfTask } from './task-concurrency.ts';

/** How a quantum end ends a split or its job (executor-bookkeeping.ts). */
export interface SplitEndings {
  finishSplit(split: ExecSplit, to: SplitState, result?: unknown, at?: number): void;
  endJob(
    job: ExecJob,
    state: 'failed' | 'cancelled',
    reason: string,
    code: ErrorCode | undefined,
  ): void;
}

export class QuantumEnds {
  readonly c = {
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
  /** Told every quantum's wall time (`Executor.onQuantumWall`); null costs one check a quantum. */
  quantumWall: QuantumWallVisitor | null = null;
  /** `Executor.drain` calls waiting for the last cancelled split to leave its worker. */
  drainWaiters: (() => void)[] = [];
  /** The dispatcher's arrays (never replaced), read here without going through it. */
  private readonly runningOn: (ExecSplit | null)[];
  private readonly queuedOn: ExecSplit[][];

  constructor(
    private readonly backend: Backend,
    private readonly knobs: Knobs,
    private readonly live: SplitBook,
    private readonly dispatcher: Dispatcher,
    private readonly spans: SpanRing,
    private readonly trail: JobTrail,
    private readonly execStats: ExecutorStats,
    /** Live jobs counted (job-book.ts `counts.live`): drain waits for none; and who is told of blocks. */
    private readonly jobs: {
      readonly counts: { readonly live: number };
      parked(split: ExecSplit, blocked: boolean): void;
      chargedAfterEnd(job: ExecSplit['job']): void;
    },
    private readonly endings: SplitEndings,
  ) {
    this.runningOn = dispatcher.runningOn;
    this.queuedOn = dispatcher.queuedOn;
  }

  /**
   * The counters now, from the live splits per state, the job book's counts and the time so far
   * of the quanta running now (`running`, executor-rows.ts `runningTime`): busy and overrun time
   * count those as far as they have run, and never go back from what was shown. `behind`: splits
   * dispatched behind a worker's running quantum (`ExecutorOptions.pipeline`), running by state but
   * not started there: counted queued (docs/metrics.md "splits running / queued").
   */
  counters(
    s: Int32Array,
    jobs: JobBook['counts'],
    running: { busy: number; overrun: number },
    behind: number,
  ): Counters {
    const c = this.c;
    c.shownBusy = Math.max(c.shownBusy, c.busyNanos + running.busy);
    c.shownOverrun = Math.max(c.shownOverrun, c.overrunNanos + running.overrun);
    return {
      ...jobs,
      splitsWaiting: s[SplitState.waiting] ?? 0,
      splitsQueued: (s[SplitState.queued] ?? 0) + behind,
      splitsRunning: (s[SplitState.running] ?? 0) + (s[SplitState.cancelling] ?? 0) - behind,
      splitsBlocked: s[SplitState.blocked] ?? 0,
      splitsRetrying: s[SplitState.retrying] ?? 0,
      quanta: c.quanta,
      retries: c.retries,
      busyNanos: c.shownBusy,
      overrunNanos: c.shownOverrun,
      staleEnds: c.staleEnds,
      runawayQuanta: c.runawayQuanta,
      killedQuanta: c.killedQuanta,
      ...(c.cpuQuanta > 0 ? { cpuNanos: c.cpuNanos } : {}),
    };
  }

  onQuantumEnd(end: QuantumEnd): void {
    const w = end.workerId;
    let split = this.runningOn[w];
    const list = this.queuedOn[w];
    if (split !== undefined && split !== null && split.id === end.splitId) {
      // The first split queued behind it (if any) runs there now: it started when this ended.
      const next = list !== undefined && list.length > 0 ? list.shift()! : null;
      this.runningOn[w] = next;
      if (next !== null) {
        this.dispatcher.dequeued(w, next);
        this.dispatcher.began(next, Math.max(next.dispatchedAt, end.endNanos));
      }
      // Never handed to the worker (the cluster's Redis refused it): no quantum, no span. It was
      // counted as one, with a span from its dispatch, each time Redis refused it.
      if (end.ranNanos === 0 && end.outcome === 'yielded' && end.unstarted === true)
        return this.unstarted(split, end);
    } else {
      const at = list === undefined ? -1 : indexOfSplit(list, end.splitId);
      if (at < 0) {
        // A backend reporting a split we did not start there: ignore it (never run a split
        // twice) and count it, since it means a backend bug (Counters.staleEnds, 0 when all
        // is well).
        this.c.staleEnds++;
        return;
      }
      split = list![at]!;
      list!.splice(at, 1);
      this.dispatcher.dequeued(w, split);
      // Never the head on its worker: its wait ended only now (it ran, or it comes back).
      this.dispatcher.began(split, Math.max(split.dispatchedAt, end.startNanos));
      // Handed back before it started (cancelled, or its worker retired or lost): no quantum.
      // Any other end of it ran there ahead of the running one (a cluster node takes its queued
      // quanta in no set order): a quantum like any other. Taken for one handed back, its time
      // was never counted or charged, and a yielded one ran its work again.
      if (end.unstarted === true && end.outcome !== 'failed') return this.unstarted(split, end);
    }
    const ran = end.ranNanos;
    const now = this.backend.now();
    this.c.quanta++;
    this.c.busyNanos += ran;
    if (ran > this.knobs.settings.dispatchQuantumNanos) {
      const over = ran - this.knobs.settings.dispatchQuantumNanos;
      if (over > split.maxOverrunNanos) split.maxOverrunNanos = over;
      this.c.overrunNanos += over;
      if (ran - this.knobs.settings.dispatchQuantumNanos > this.knobs.settings.runawayNanos) {
        this.c.runawayQuanta++;
      }
    }
    if (end.errorCode === 'QUANTUM_OVERRUN_KILLED') this.c.killedQuanta++;
    if (end.cpuNanos !== undefined) {
      this.c.cpuNanos += end.cpuNanos;
      this.c.cpuQuanta++;
    }
    if (this.dispatcher.pipelined)
      this.dispatcher.kernelNanos.note(
        split.work.kernel,
        ran,
        this.knobs.settings.dispatchQuantumNanos,
      );
    // What the queue charges: the quantum's wall time (Trino's scheduled time), or under
    // `chargeTime: 'cpu'` its thread's CPU time where the backend measured it.
    const charged =
      this.knobs.cfg.chargeTime === 'cpu' && end.cpuNanos !== undefined ? end.cpuNanos : ran;
    split.addScheduledNanos(charged);
    split.doneNanos += end.workNanos;
    this.knobs.queue.charge(split, charged, now);
    quantumOfTask(split.task, split.leaf, ran, charged, now);
    this.execStats.taskCharged(split.task);
    this.quantumWall?.(ran, end.outcome === 'blocked');
    this.spans.record(
      end.workerId,
      end.startNanos,
      end.endNanos,
      split.job.id,
      split.task.id,
      split.id,
      split.level,
      outcomeIndex(end.outcome),
      split.job.clsIndex,
    );
    this.trail.recordRun(
      split.job.id,
      split.task.id,
      split.id,
      split.dispatchedAt,
      end.endNanos,
      split.lastWaitNanos,
      end.workerId,
      split.level,
      outcomeIndex(end.outcome),
      end.outcome === 'failed' ? (end.errorCode ?? 'KERNEL_FAILED') : undefined,
    );
    if (split.state === SplitState.cancelling) {
      if (split.job.state !== 'running') this.jobs.chargedAfterEnd(split.job);
      if (split.cancelAfterQuantum) this.backend.cancel(split.id);
      this.endings.finishSplit(split, SplitState.cancelled);
    } else {
      this.afterQuantum(split, end, now);
    }
    this.dispatcher.pump();
    this.settleDrain();
  }

  /** `drain()`'s waiters, once nothing is live and no worker is busy. */
  private settleDrain(): void {
    if (
      this.drainWaiters.length > 0 &&
      this.jobs.counts.live === 0 &&
      this.live.busyWorkers() === 0
    ) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const fn of waiters) fn();
    }
  }

  /** A queued dispatch that never started: back to the queue, or ended if it was cancelled. */
  private unstarted(split: ExecSplit, end: QuantumEnd): void {
    const now = this.backend.now();
    this.knobs.queue.released?.(split); // taken, never run: no charge comes for it
    if (split.state === SplitState.cancelling)
      this.endings.finishSplit(split, SplitState.cancelled);
    else if (end.outcome === 'yielded') this.requeue(split, now, 'requeue');
    else this.afterQuantum(split, end, now);
    this.dispatcher.pump();
    this.settleDrain();
  }

  private afterQuantum(split: ExecSplit, end: QuantumEnd, now: number): void {
    if (split.interrupted) {
      split.interrupted = false;
      // The interrupt stopped it (or the backend's cancel did, for a backend without one); a
      // quantum that ended by itself before the interrupt landed keeps its own outcome.
      if (end.outcome === 'failed' || end.outcome === 'cancelled') {
        this.failOrRetry(split, 'interrupted on request', 'INTERRUPTED', now);
        return;
      }
    }
    switch (end.outcome) {
      case 'yielded':
        this.requeue(split, now, 'requeue');
        return;
      case 'blocked': {
        this.live.move(split, SplitState.blocked);
        const wakeAt = now + Math.max(0, end.blockedNanos ?? 0);
        split.cancelTimer = this.backend.setTimer(wakeAt, () => this.wake(split, 'woken'));
        this.jobs.parked(split, true);
        return;
      }
      case 'finished':
        this.endings.finishSplit(split, SplitState.succeeded, end.result, now);
        return;
      case 'failed':
        this.failOrRetry(split, end.error ?? 'quantum ended failed', end.errorCode, now, end.cause);
        return;
      case 'cancelled': // the backend stopped it unasked (the executor's cancels end above)
        this.failOrRetry(split, end.error ?? 'quantum ended cancelled', 'CANCELLED', now);
        return;
    }
  }

  private failOrRetry(
    split: ExecSplit,
    reason: string,
    code: ErrorCode | undefined,
    now: number,
    cause?: ErrorCause,
  ): void {
    split.errorCode = code ?? 'KERNEL_FAILED';
    if (split.failures >= split.job.retries) {
      const job = split.job;
      if (job.ownsSplitFailures) {
        job.splitError = reason;
        this.endings.finishSplit(split, SplitState.failed);
        job.splitError = undefined;
        return;
      }
      if (job.error === undefined) {
        job.error = `split ${split.id}: ${reason}`;
        job.failedSplitReason = reason;
        job.errorCode = split.errorCode;
        if (cause !== undefined) job.errorCause = cause;
      }
      this.endings.finishSplit(split, SplitState.failed);
      if (job.state === 'running') this.endings.endJob(job, 'failed', job.error, job.errorCode);
      return;
    }
    const s = this.knobs.settings;
    const backoff = Math.min(
      s.retryBackoffMaxNanos,
      s.retryBackoffNanos * this.knobs.cfg.retryBackoffMultiplier ** split.failures,
    );
    split.failures++;
    this.c.retries++;
    this.live.move(split, SplitState.retrying);
    split.doneNanos = 0; // a failed attempt's work is lost; the retry starts over
    split.cancelTimer = this.backend.setTimer(now + Math.round(backoff), () =>
      this.wake(split, 'retry'),
    );
  }

  private wake(split: ExecSplit, reason: 'woken' | 'retry'): void {
    split.cancelTimer = null;
    if (split.state !== SplitState.blocked && split.state !== SplitState.retrying) return;
    const now = this.backend.now();
    if (reason === 'retry')
      split.readySince = now; // aging restarts: a failing task must not climb
    else this.jobs.parked(split, false);
    this.requeue(split, now, reason);
    this.dispatcher.pump();
  }

  requeue(split: ExecSplit, now: number, reason: 'requeue' | 'woken' | 'retry'): void {
    split.enqueuedAt = now; // before the move: the waiting splits' index reads it
    this.live.move(split, SplitState.queued);
    split.requeued = true;
    this.knobs.offer(split, now, reason);
  }
}

function indexOfSplit(list: readonly ExecSplit[], splitId: number): number {
  for (let i = 0; i < list.length; i++) if (list[i]!.id === splitId) return i;
  return -1;
}
