/**
 * The executor's loop (docs/design.md §4): whenever a worker is idle and a split is ready it takes one
 * and dispatches it for one quantum; when the quantum ends it charges the time to the split and its
 * fairness groups, tells the policy, records a Gantt span, then re-offers, parks (blocked),
 * finishes, fails or retries the split. Arrivals, admission and endings are the layer below
 * (executor-bookkeeping.ts); lifecycles are checked on every move (lifecycle.ts).
 */
import type { ErrorCode } from '../../../shared/errors.ts';
import { outcomeIndex } from '../../../shared/lib/outcomes.ts';
import { policyLevel } from '../../core/policies.ts';
import { effectivePriority, type AgingKnobs } from '../../core/priority/aging.ts';
import type { QuantumEnd } from '../backend.ts';
import { ExecutorBookkeeping } from './executor-bookkeeping.ts';
import { TrailKind } from './job-trail.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecSplit } from './records.ts';
import { quantumOfTask } from './task-concurrency.ts';

export abstract class ExecutorCore extends ExecutorBookkeeping {
  // ─── dispatch ────────────────────────────────────────────────────────────────────────────

  protected pump(): void {
    if (this.pumping || this.isPaused || this.closed) return;
    if (this.queue.size === 0 && !this.pipelined) return;
    this.pumping = true;
    try {
      const backend = this.backend;
      const now = backend.now();
      if (backend.firstIdleWorker !== undefined) {
        // Same order as the array below (lowest idle first); dispatching marks the worker busy.
        for (let w = backend.firstIdleWorker(); w >= 0; w = backend.firstIdleWorker()) {
          const split = this.queue.take(now);
          if (split === null || !this.place(split, w, now, false)) break;
        }
        return;
      }
      const idle = backend.idleWorkers();
      for (let i = 0; i < idle.length; i++) {
        const w = idle[i]!;
        if (this.runningOn[w] !== null && this.runningOn[w] !== undefined) continue; // see below
        const split = this.queue.take(now);
        if (split !== null) {
          if (!this.place(split, w, now, false)) break;
          // Sent to the worker it is pinned to (`place`), perhaps one later in `idle`: this one
          // is still idle.
          if (split.worker !== w) i--;
        } else if (!this.pipelined || !this.reclaim(w)) break;
      }
      if (this.pipelined && this.queue.size > 0) {
        if (backend.queueRoom !== undefined) this.fillQueues(now);
        else {
          for (const w of backend.queueableWorkers!()) {
            if (this.queuedOn[w]?.length) continue;
            const split = this.queue.take(now);
            if (split === null) break;
            this.dispatch(split, w, now, true);
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Queues splits behind busy workers, one per worker a round (so the policy's order is spread
   * over them), while a worker's queued splits are expected to run within one quantum: at least
   * one, the first as the single queued dispatch always was, then more only while the expected
   * time is below the quantum, so a split expected to take a whole quantum ends a batch.
   */
  private fillQueues(now: number): void {
    const backend = this.backend;
    const quantum = this.settings.dispatchQuantumNanos;
    const runningOn = this.runningOn;
    for (let more = true; more;) {
      more = false;
      for (let w = 0; w < runningOn.length; w++) {
        if (runningOn[w] === null || runningOn[w] === undefined) continue;
        const list = this.queuedOn[w];
        if (list !== undefined && list.length > 0 && this.queuedExpected[w]! >= quantum) continue;
        if (backend.queueRoom!(w) <= 0) continue;
        const split = this.queue.take(now);
        if (split === null || !this.place(split, w, now, true)) return;
        more = true;
      }
    }
  }

  /**
   * Dispatches `split`, taken from the queue for worker `w`, there — or, when the backend pinned
   * it to another worker (its call is suspended there in `await ctx.yield()`), on that one: at
   * once if it is idle, else queued behind its quantum. False when that worker's queue is full:
   * the split goes back to the queue and this round of dispatching stops (it would be taken
   * again first).
   */
  private place(split: ExecSplit, w: number, now: number, queued: boolean): boolean {
    const backend = this.backend;
    const home = backend.affinity === undefined ? -1 : backend.affinity(split.id);
    if (home < 0 || home === w) {
      this.dispatch(split, w, now, queued);
      return true;
    }
    const busy = this.runningOn[home] !== null && this.runningOn[home] !== undefined;
    if (!busy) this.dispatch(split, home, now, false);
    else if (backend.enqueue !== undefined && (backend.queueRoom?.(home) ?? 0) > 0) {
      this.dispatch(split, home, now, true);
    } else {
      this.queue.offer(split, now, 'moved');
      return false;
    }
    return true;
  }

  /**
   * How long `split`'s next quantum is expected to run: a whole quantum when it ran before (it
   * yielded, slept or failed) or its kernel has no recent quantum, else the kernel's recent time.
   */
  private expectedNanos(split: ExecSplit): number {
    const quantum = this.settings.dispatchQuantumNanos;
    if (split.requeued) return quantum;
    const recent = this.kernelNanos.get(split.work.kernel);
    return recent === undefined ? quantum : Math.min(recent, quantum);
  }

  /** `split` left worker `w`'s queue (it runs there now, or went back). */
  private dequeued(w: number, split: ExecSplit): void {
    const list = this.queuedOn[w];
    this.queuedExpected[w] =
      list === undefined || list.length === 0
        ? 0
        : Math.max(0, this.queuedExpected[w]! - this.expectedNanos(split));
  }

  /**
   * `queued`: behind the quantum running on `worker` (`ExecutorOptions.pipeline`); the split is
   * running from here on, as a direct dispatch is.
   */
  protected dispatch(split: ExecSplit, worker: number, now: number, queued: boolean): void {
    this.move(split, SplitState.running);
    const wait = now - split.enqueuedAt;
    split.waitNanos += wait;
    const onWait = this.dispatchWait;
    if (onWait !== null) onWait(split.job.clsIndex, wait, split.basePriority);
    if (split.requeued) this.noteRequeueWait(split.job.clsIndex, wait);
    split.worker = worker;
    split.dispatchedAt = now;
    split.lastWaitNanos = wait;
    const before = split.level;
    split.level = policyLevel(this.queue, split);
    if (this.queue.policy === 'mlfq' || this.queue.policy === 'priority') {
      this.traceUrgency(split, before, now);
    }
    const backend = this.backend;
    const quantum = this.settings.dispatchQuantumNanos;
    if (queued) {
      (this.queuedOn[worker] ??= []).push(split);
      this.queuedExpected[worker] = (this.queuedExpected[worker] ?? 0) + this.expectedNanos(split);
      backend.enqueue!({
        splitId: split.id,
        workerId: worker,
        quantumNanos: quantum,
        work: split.work,
        doneNanos: split.doneNanos,
      });
      return;
    }
    this.runningOn[worker] = split;
    if (backend.startQuantum !== undefined) {
      backend.startQuantum(split.id, worker, quantum, split.work, split.doneNanos);
      return;
    }
    backend.start({
      splitId: split.id,
      workerId: worker,
      quantumNanos: quantum,
      work: split.work,
      doneNanos: split.doneNanos,
    });
  }

  /**
   * Records in the job trail how urgent a split was at this dispatch when that changed: MLFQ, a
   * level other than its last quantum's (a demotion, or a promotion after catch-up); priority,
   * an effective priority aged below its base (the aging formula at this moment).
   */
  private traceUrgency(split: ExecSplit, before: number, now: number): void {
    const q = this.queue.policy;
    if (q === 'mlfq') {
      if (split.requeued && split.level !== before) {
        const t = split.task.id;
        this.trail.record(
          TrailKind.level,
          split.job.id,
          t,
          split.id,
          now,
          0,
          before,
          -1,
          split.level,
        );
      }
      return;
    }
    // Priority: a split that has not waited past `agingAfter` has no boost (skips the formula).
    if (q !== 'priority' || now - split.readySince <= this.settings.agingAfterNanos) return;
    const eff = effectivePriority(split.basePriority, split.readySince, now, this.agingKnobs());
    if (eff < split.basePriority) {
      const t = split.task.id;
      this.trail.record(TrailKind.aging, split.job.id, t, split.id, now, split.basePriority, eff);
    }
  }

  /** The aging knobs of the settings now, made once per settings object. */
  private agingKnobs(): AgingKnobs {
    const s = this.settings;
    if (this.knobsFor !== s) {
      this.knobsFor = s;
      this.knobs = {
        aging: this.cfg.aging,
        agingAfterNanos: s.agingAfterNanos,
        agingStepNanos: s.agingStepNanos,
        agingCap: this.cfg.agingCap,
      };
    }
    return this.knobs!;
  }
  private knobsFor: object | null = null;
  private knobs: AgingKnobs | null = null;

  /**
   * Worker `idle` has nothing ready: it takes a split queued behind another worker's quantum
   * that has not started there (its dispatch already counted). True when it took one.
   */
  private reclaim(idle: number): boolean {
    const queuedOn = this.queuedOn;
    for (let w = 0; w < queuedOn.length; w++) {
      // The last queued there: the least likely to have started.
      const list = queuedOn[w];
      const split = list?.[list.length - 1];
      if (!split || split.state !== SplitState.running) continue;
      // A split pinned to its worker (`place`) stays there.
      if ((this.backend.affinity?.(split.id) ?? -1) >= 0 || !this.backend.revoke!(split.id)) {
        continue;
      }
      list!.pop();
      this.dequeued(w, split);
      split.worker = idle;
      this.runningOn[idle] = split;
      this.backend.start({
        splitId: split.id,
        workerId: idle,
        quantumNanos: this.settings.dispatchQuantumNanos,
        work: split.work,
        doneNanos: split.doneNanos,
      });
      return true;
    }
    return false;
  }

  // ─── quantum end ─────────────────────────────────────────────────────────────────────────

  protected onQuantumEnd(end: QuantumEnd): void {
    const w = end.workerId;
    let split = this.runningOn[w];
    const list = this.queuedOn[w];
    if (split !== undefined && split !== null && split.id === end.splitId) {
      // The first split queued behind it (if any) runs there now.
      const next = list !== undefined && list.length > 0 ? list.shift()! : null;
      this.runningOn[w] = next;
      if (next !== null) this.dequeued(w, next);
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
      this.dequeued(w, split);
      // Handed back before it started (cancelled, or its worker retired or lost): no quantum.
      if (end.outcome !== 'failed') return this.unstarted(split, end);
    }
    const ran = end.ranNanos;
    const now = this.backend.now();
    this.c.quanta++;
    this.c.busyNanos += ran;
    if (ran > this.settings.dispatchQuantumNanos) {
      const over = ran - this.settings.dispatchQuantumNanos;
      if (over > split.maxOverrunNanos) split.maxOverrunNanos = over;
      this.c.overrunNanos += over;
      if (ran - this.settings.dispatchQuantumNanos > this.settings.runawayNanos) {
        this.c.runawayQuanta++;
      }
    }
    if (end.errorCode === 'QUANTUM_OVERRUN_KILLED') this.c.killedQuanta++;
    if (end.cpuNanos !== undefined) {
      this.c.cpuNanos += end.cpuNanos;
      this.c.cpuQuanta++;
    }
    if (typeof split.work.kernel !== 'string') this.rememberModuleSplit(split.id, split.job.id);
    if (this.pipelined)
      this.kernelNanos.note(split.work.kernel, ran, this.settings.dispatchQuantumNanos);
    // What the queue charges: the quantum's wall time (Trino's scheduled time), or under
    // `chargeTime: 'cpu'` its thread's CPU time where the backend measured it.
    const charged =
      this.cfg.chargeTime === 'cpu' && end.cpuNanos !== undefined ? end.cpuNanos : ran;
    split.addScheduledNanos(charged);
    split.doneNanos += end.workNanos;
    this.queue.charge(split, charged, now);
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
      if (split.cancelAfterQuantum) this.backend.cancel(split.id);
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

  /** A queued dispatch that never started: back to the queue, or ended if it was cancelled. */
  private unstarted(split: ExecSplit, end: QuantumEnd): void {
    const now = this.backend.now();
    if (split.state === SplitState.cancelling) this.finishSplit(split, SplitState.cancelled);
    else if (end.outcome === 'yielded') this.requeue(split, now, 'requeue');
    else this.afterQuantum(split, end, now);
    this.pump();
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

  protected afterQuantum(split: ExecSplit, end: QuantumEnd, now: number): void {
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
    split.requeued = true;
    this.queue.offer(split, now, reason);
  }
}

function indexOfSplit(list: readonly ExecSplit[], splitId: number): number {
  for (let i = 0; i < list.length; i++) if (list[i]!.id === splitId) return i;
  return -1;
}
