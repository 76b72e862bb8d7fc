/**
 * The dispatcher (docs/design.md §4): whenever a worker is idle and a split is ready it takes one
 * from the policy's queue (knobs.ts) and dispatches it for one quantum, moving it `running`
 * (split-book.ts); pinned splits go to their worker (`place`); with `ExecutorOptions.pipeline`
 * it queues dispatches behind busy workers and takes back unstarted ones for an idle worker. It
 * knows which split runs, and which are queued, on each worker; quantum ends (quantum-ends.ts)
 * tell it when a worker frees. Also measures each split's wait as it ends, at its dispatch.
 */
import { policyLevel } from '../../core/policies.ts';
import { effectivePriority } from '../../core/priority/aging.ts';
import type { Backend } from '../backend.ts';
import type { WaitVisitor } from './executor-options.ts';
import { TrailKind, type JobTrail } from './job-trail.ts';
import { KernelTimes } from './kernel-times.ts';
import type { Knobs } from './knobs.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecSplit } from './records.ts';
import type { SplitBook } from './split-book.ts';

export class Dispatcher {
  /** The split whose quantum runs on each worker (null: idle). */
  readonly runningOn: (ExecSplit | null)[] = [];
  /**
   * The splits queued behind each worker's running one, in the order the worker runs them
   * (`ExecutorOptions.pipeline`), and their expected run time summed (ns, `expectedNanos`).
   */
  readonly queuedOn: ExecSplit[][] = [];
  private readonly queuedExpected: number[] = [];
  /** Recent quantum wall time per kernel (ns), for the expected time of a queued split. */
  readonly kernelNanos = new KernelTimes();
  /** Longest requeue wait per class (by the span ring's class index), ns. */
  readonly requeueWaitMax: number[] = [];
  /** Told every wait as it ends (`Executor.onDispatchWait`); null costs one check a quantum. */
  dispatchWait: WaitVisitor | null = null;
  /** Dispatching stops while paused (`Executor.pause`) and for good once closed. */
  paused = false;
  closed = false;
  /** No quantum is dispatched at or after this backend time (`Executor.stopDispatchAt`). */
  stopAt = Infinity;
  private pumping = false;
  /** `clock()`'s reading for the pump in progress; −1 until read. */
  private pumpNow = -1;
  /** The pump armed for the next late-binding window (`fillQueues`), and when it runs. */
  private bindTimer: (() => void) | null = null;
  private bindTimerAt = 0;

  constructor(
    private readonly backend: Backend,
    private readonly knobs: Knobs,
    private readonly live: SplitBook,
    private readonly trail: JobTrail,
    /** Whether this executor queues dispatches behind running quanta (see `pipeline`). */
    readonly pipelined: boolean,
  ) {}

  /** Splits queued behind running quanta on all workers (running by state, not started). */
  queuedBehind(): number {
    if (!this.pipelined) return 0;
    let n = 0;
    for (const list of this.queuedOn) if (list !== undefined) n += list.length;
    return n;
  }

  /** Of those, the ones cancelled meanwhile (they end when their worker hands them back). */
  cancellingBehind(): number {
    if (!this.pipelined) return 0;
    let n = 0;
    for (const list of this.queuedOn) {
      if (list === undefined) continue;
      for (const s of list) if (s.state === SplitState.cancelling) n++;
    }
    return n;
  }

  // ─── dispatch ────────────────────────────────────────────────────────────────────────────

  pump(): void {
    if (this.pumping || this.paused || this.closed) return;
    if (this.knobs.queue.size === 0 && !this.pipelined) return;
    // The clock is read for the stop only when one is set (on threads a read allocates).
    if (this.stopAt !== Infinity && this.backend.now() >= this.stopAt) return;
    this.pumping = true;
    try {
      const backend = this.backend;
      this.pumpNow = -1;
      if (backend.firstIdleWorker !== undefined) {
        // Same order as the array below (lowest idle first); dispatching marks the worker busy.
        for (let w = backend.firstIdleWorker(); w >= 0; w = backend.firstIdleWorker()) {
          const split = this.knobs.queue.take(this.clock());
          if (split === null || !this.place(split, w, this.clock(), false)) break;
        }
        return;
      }
      const idle = backend.idleWorkers();
      for (let i = 0; i < idle.length; i++) {
        const w = idle[i]!;
        if (this.runningOn[w] !== null && this.runningOn[w] !== undefined) continue; // see below
        const split = this.knobs.queue.take(this.clock());
        if (split !== null) {
          if (!this.place(split, w, this.clock(), false)) break;
          // Sent to the worker it is pinned to (`place`), perhaps one later in `idle`: this one
          // is still idle.
          if (split.worker !== w) i--;
        } else if (!this.pipelined || !this.reclaim(w)) break;
      }
      if (this.pipelined && this.knobs.queue.size > 0) {
        if (backend.queueRoom !== undefined) this.fillQueues();
        else {
          for (const w of backend.queueableWorkers!()) {
            if (this.queuedOn[w]?.length) continue;
            const split = this.knobs.queue.take(this.clock());
            if (split === null) break;
            this.dispatch(split, w, this.clock(), true);
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * The time of this pump, read when it first dispatches: a pump that finds every worker busy
   * (each arrival pumps) reads no clock (on threads a read allocates).
   */
  private clock(): number {
    if (this.pumpNow < 0) this.pumpNow = this.backend.now();
    return this.pumpNow;
  }

  /**
   * Queues splits behind busy workers, one per worker a round (so the policy's order is spread
   * over them), while a worker's queued splits are expected to run within one quantum
   * (`quantumMs`; or the backend's `queueAheadNanos`, when longer): at least one, the first as
   * the single queued dispatch always was, then more only while the expected time is below that,
   * so a split expected to take a whole quantum ends a batch. With the backend's `bindLeadNanos`
   * the first waits until the running quantum's expected end is that close, and a pump is timed
   * for then.
   */
  private fillQueues(): void {
    const backend = this.backend;
    // The configured quantum, not the dispatch quantum: under non-preemptive `priority` that is a
    // whole run (1e15 ns), and every waiting run of a known kernel was committed behind the busy
    // workers in arrival order, so priority 0 and 90 ran interleaved and aging never applied.
    const quantum = Math.max(this.knobs.settings.quantumNanos, backend.queueAheadNanos ?? 0);
    const runningOn = this.runningOn;
    const lead = backend.bindLeadNanos;
    if (this.yieldsFirst()) return; // O(workers): once a pump, again after each commit (fair)
    let opens = Infinity;
    let committed = false;
    for (let more = true; more;) {
      more = false;
      for (let w = 0; w < runningOn.length; w++) {
        const running = runningOn[w];
        if (running === null || running === undefined) continue;
        const list = this.queuedOn[w];
        if (list !== undefined && list.length > 0) {
          if (this.queuedExpected[w]! >= quantum) continue;
        } else if (lead !== undefined) {
          // Late binding: the first split queued behind a running quantum is chosen only within
          // `lead` of that quantum's expected end, so a newcomer the policy favours that arrives
          // before then waits for the running quantum alone, not for a queued one as well.
          const at = running.dispatchedAt + this.expectedNanos(running) - lead;
          if (at > this.clock()) {
            if (at < opens) opens = at;
            continue;
          }
        }
        if (backend.queueRoom!(w) <= 0) continue;
        // Each commit changes what the queue would choose next: looked at again before the next.
        if (committed && this.yieldsFirst()) return;
        const split = this.knobs.queue.take(this.clock());
        if (split === null) return;
        if (!this.place(split, this.spreadFrom(w, split), this.clock(), true)) return;
        more = committed = true;
      }
    }
    if (opens !== Infinity && this.knobs.queue.size > 0) this.bindAt(opens);
  }

  /**
   * `fair`: a split running now that yielded before, or in a first quantum expected to run whole
   * (so comes back after its quantum), whose group would then still be chosen before the queue's
   * next: nothing is committed ahead of it. Counting only those that had yielded, a tenant's new
   * run's first quantum had the other tenant's run committed ahead of it. Without
   * this, where every run was running or committed, each yield found its worker's next run chosen
   * already, from the only other group queued: a weight-3 tenant keeping two runs going on two
   * workers got half the service, not three quarters.
   */
  private yieldsFirst(): boolean {
    const defers = this.knobs.queue.defers;
    if (defers === undefined) return false;
    for (const running of this.runningOn) {
      if (running === null || running === undefined) continue;
      const expected = this.expectedNanos(running);
      // A first quantum expected to run whole (its kernel's recent quanta did) comes back too.
      if (!running.requeued && expected < this.knobs.settings.dispatchQuantumNanos) continue;
      if (defers.call(this.knobs.queue, running, expected)) return true;
    }
    return false;
  }

  /**
   * `fair`: where to commit `split`, taken for busy worker `w`: not behind a split of its own
   * group when another busy worker, running another group's, has nothing queued yet. Committed
   * behind its group's other run, a tenant's two runs took turns on one worker while the other
   * worker served the other tenant: each got a worker whatever their weights.
   */
  private spreadFrom(w: number, split: ExecSplit): number {
    if (this.knobs.queue.defers === undefined || this.runningOn[w]?.group !== split.group) return w;
    // Late binding (the cluster) chooses each worker's next near its end: not moved ahead of it.
    if (this.backend.bindLeadNanos !== undefined) return w;
    for (let v = 0; v < this.runningOn.length; v++) {
      const other = this.runningOn[v];
      if (other === null || other === undefined || other.group === split.group) continue;
      if ((this.queuedOn[v]?.length ?? 0) === 0 && this.backend.queueRoom!(v) > 0) return v;
    }
    return w;
  }

  /** Pumps again at `at`, when a running quantum comes within `bindLeadNanos` of its end. */
  private bindAt(at: number): void {
    if (this.bindTimer !== null) {
      if (this.bindTimerAt <= at) return;
      this.bindTimer();
    }
    this.bindTimerAt = at;
    this.bindTimer = this.backend.setTimer(at, () => {
      this.bindTimer = null;
      this.pump();
    });
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
    let home = backend.affinity === undefined ? -1 : backend.affinity(split.id);
    if (home < 0 && backend.runs !== undefined && !backend.runs(w, split.work)) {
      home = this.runnerFor(split);
      if (home < 0) {
        // No worker that can run it is idle or has room: it waits in the queue, and so does
        // this round (it would be taken again first).
        this.knobs.queue.offer(split, now, 'moved');
        return false;
      }
    }
    if (home < 0 || home === w) {
      this.dispatch(split, w, now, queued);
      return true;
    }
    const busy = this.runningOn[home] !== null && this.runningOn[home] !== undefined;
    if (!busy) this.dispatch(split, home, now, false);
    else if (backend.enqueue !== undefined && (backend.queueRoom?.(home) ?? 0) > 0) {
      this.dispatch(split, home, now, true);
    } else {
      this.knobs.queue.offer(split, now, 'moved');
      return false;
    }
    return true;
  }

  /**
   * A worker that can run `split` (`Backend.runs`) and take it now: an idle one first, else a busy
   * one with room queued behind it (pipelined); −1 when none.
   */
  private runnerFor(split: ExecSplit): number {
    const backend = this.backend;
    for (const w of backend.idleWorkers()) if (backend.runs!(w, split.work)) return w;
    if (!this.pipelined || backend.enqueue === undefined) return -1;
    for (let w = 0; w < this.runningOn.length; w++) {
      if (this.runningOn[w] == null || (backend.queueRoom?.(w) ?? 0) <= 0) continue;
      if (backend.runs!(w, split.work)) return w;
    }
    return -1;
  }

  /**
   * How long `split`'s next quantum is expected to run: a whole quantum when it ran before (it
   * yielded, slept or failed) or its kernel has no recent quantum, else the kernel's recent time.
   */
  private expectedNanos(split: ExecSplit): number {
    const quantum = this.knobs.settings.dispatchQuantumNanos;
    if (split.requeued) return quantum;
    const recent = this.kernelNanos.get(split.work.kernel);
    return recent === undefined ? quantum : Math.min(recent, quantum);
  }

  /** `split` left worker `w`'s queue (it runs there now, or went back). */
  dequeued(w: number, split: ExecSplit): void {
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
  dispatch(split: ExecSplit, worker: number, now: number, queued: boolean): void {
    this.live.move(split, SplitState.running);
    // A queued dispatch still waits (behind the running quantum): its wait ends when it starts
    // (`began`); until then the job detail shows it from here, with its wait so far.
    if (queued) {
      split.dispatchedAt = now;
      split.lastWaitNanos = now - split.enqueuedAt;
    } else this.began(split, now);
    split.worker = worker;
    const before = split.level;
    split.level = policyLevel(this.knobs.queue, split);
    if (this.knobs.queue.policy === 'mlfq' || this.knobs.queue.policy === 'priority') {
      this.traceUrgency(split, before, now);
    }
    const backend = this.backend;
    const quantum = this.knobs.settings.dispatchQuantumNanos;
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
   * `split`'s quantum starts on its worker at `at`: its wait ends (measured from when it entered
   * the ready queue) and it runs from here. A direct dispatch starts at once; one queued behind a
   * running quantum when that quantum ends (quantum-ends.ts), or when an idle worker takes it
   * back (`reclaim`); one that comes back without starting ends its wait there (`unstarted`).
   */
  began(split: ExecSplit, at: number): void {
    split.job.started = true;
    const wait = Math.max(0, at - split.enqueuedAt);
    split.waitNanos += wait;
    const onWait = this.dispatchWait;
    if (onWait !== null) onWait(split.job.clsIndex, wait, split.basePriority);
    if (split.requeued) this.noteRequeueWait(split.job.clsIndex, wait);
    split.dispatchedAt = at;
    split.lastWaitNanos = wait;
  }

  /**
   * Records in the job trail how urgent a split was at this dispatch when that changed: MLFQ, a
   * level other than its last quantum's (a demotion, or a promotion after catch-up); priority,
   * an effective priority aged below its base (the aging formula at this moment).
   */
  private traceUrgency(split: ExecSplit, before: number, now: number): void {
    const q = this.knobs.queue.policy;
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
    if (q !== 'priority' || now - split.readySince <= this.knobs.settings.agingAfterNanos) return;
    const eff = effectivePriority(
      split.basePriority,
      split.readySince,
      now,
      this.knobs.agingKnobs(),
    );
    if (eff < split.basePriority) {
      const t = split.task.id;
      this.trail.record(TrailKind.aging, split.job.id, t, split.id, now, split.basePriority, eff);
    }
  }

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
      // Only where it can run (`Backend.runs`: a user module on a node with --modules).
      if (this.backend.runs?.(idle, split.work) === false) continue;
      // A split pinned to its worker (`place`) stays there.
      if ((this.backend.affinity?.(split.id) ?? -1) >= 0 || !this.backend.revoke!(split.id)) {
        continue;
      }
      list!.pop();
      this.dequeued(w, split);
      this.began(split, this.backend.now());
      split.worker = idle;
      this.runningOn[idle] = split;
      this.backend.start({
        splitId: split.id,
        workerId: idle,
        quantumNanos: this.knobs.settings.dispatchQuantumNanos,
        work: split.work,
        doneNanos: split.doneNanos,
      });
      return true;
    }
    return false;
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
}
