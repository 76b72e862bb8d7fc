/**
 * The `threads` backend (docs/design.md §4): a pool of worker threads doing real CPU work, one quantum
 * per dispatch. This file is the dispatch side: starting, queueing, cancelling and cutting quanta,
 * and turning what workers report into quantum ends. The workers themselves — their ids, their
 * lifecycle, replacement and retirement — are worker-pool.ts; a worker that dies is replaced at once
 * and its in-flight split ends `failed` with `worker lost: <reason>` (the executor decides whether
 * to retry). A busy worker can also hold one queued dispatch (`enqueue`, pool-worker.ts) that it starts as
 * soon as its quantum ends, so an executor that keeps the queue full never leaves a worker waiting
 * for the main thread between quanta.
 *
 * Messages vs shared memory: a dispatch carries structured work (kernel or module, its input, a
 * module's yielded state) and lasts a quantum (milliseconds). A round trip worker → main → worker
 * still costs ≈ 0.2 ms on 2 shared cores (waking each side, one event-loop turn each), 10 % of a
 * 2 ms quantum: hence the queued dispatch, which takes the main thread off the worker's path.
 * Shared memory is used where a message cannot help: a worker busy in a kernel reads its cancel
 * word between units, and a queued dispatch's ticket (control.ts). A user module's quantum is a
 * record of the worker's dispatch ring (dispatch-ring.ts), its module named by an id sent once
 * per worker (flat-messages.ts), its input in the record when it is a number: for tiny tasks the
 * clone of a dispatch cost more than the task. Ends come back as flat arrays, many a message.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  newEnd,
  unstartedEnd,
  type Backend,
  type BackendEvents,
  type Dispatch,
  type ModuleRef,
  type QuantumEnd,
  type Unstarted,
} from '../backend.ts';
import { nanosSince, originNow } from './clock.ts';
import { CONTROL, MAX_QUEUED, NO_SPLIT } from './control.ts';
import type { PoolWorker, Ticket } from './pool-worker.ts';
import { WorkerPool } from './worker-pool.ts';
import type { QuantumReport, StrayError } from './protocol.ts';
import { ModuleIds, postDispatch } from './flat-messages.ts';
import { FaultInjector } from './fault-injection.ts';
import { HardKill } from './hard-kill.ts';
import { Outbox } from './outbox.ts';
import { failedEnd, measuredEnd, refillEnd } from './quantum-ends.ts';
import {
  checkCount,
  checkResourceLimits,
  checkCut,
  DEFAULT_RESOURCE_LIMITS,
  type ThreadsBackendOptions,
} from './threads-options.ts';
import { WallTimers } from './wall-timers.ts';

export {
  DEFAULT_RESOURCE_LIMITS,
  MAX_WORKERS,
  type ThreadsBackendOptions,
} from './threads-options.ts';

/** How long a worker beyond the count lingers after its last suspended call is dropped. */
const DROP_GRACE_NANOS = 1e9;
/**
 * How long `close` lets the calls it dropped run their `finally` blocks before the threads end
 * (docs/library.md): a block that awaits longer is cut off with its thread.
 */
const CLOSE_DROP_GRACE_MS = 200;

export class ThreadsBackend implements Backend {
  readonly kind = 'threads';
  private readonly origin = originNow();
  private readonly workers: WorkerPool;
  private readonly timers = new WallTimers(() => this.now());
  /** State a user module yielded, by split: the input of its next quantum. */
  private readonly moduleState = new Map<number, unknown>();
  /**
   * The worker whose thread holds a split's call suspended in `await ctx.yield()` (quantum-runner.ts):
   * its next quantum must run there (`affinity`). Kept until a quantum of the split ends other
   * than suspended, it fails, or it is cancelled; a lost worker's entries fail their next start.
   */
  private readonly suspended = new Map<number, PoolWorker>();
  /** The worker of every split running or queued. */
  private readonly running = new Map<number, PoolWorker>();
  /** Ids of user modules' refs, for the flat dispatch of a module's quantum (flat-messages.ts). */
  private readonly moduleIds = new ModuleIds();
  private readonly faults: FaultInjector;
  private readonly hardKill: HardKill;
  /** Messages to workers, posted once a turn (outbox.ts). */
  private readonly outbox: Outbox;
  private listener: BackendEvents | null = null;
  /** Ends told on a worker's behalf after the caller returns, not told yet (`later`). */
  private deferred = 0;
  /** Refilled for every measured quantum when the listener keeps nothing of it (`transientEnd`). */
  private readonly sharedEnd = newEnd();
  private closed = false;

  constructor(options: ThreadsBackendOptions = {}) {
    const workers = checkCount(options.workers ?? availableParallelism());
    this.faults = new FaultInjector(options.seed);
    const limits: ResourceLimits = {
      ...DEFAULT_RESOURCE_LIMITS,
      ...(options.resourceLimits === undefined ? {} : checkResourceLimits(options.resourceLimits)),
    };
    const events = {
      ready: (worker: PoolWorker) => {
        // A dispatch that waited in the port of a worker still starting runs from now.
        if (worker.running !== null) worker.sentAt = Math.max(worker.sentAt, this.now());
      },
      end: (worker: PoolWorker, report: QuantumReport) => this.finish(worker, report),
      respawned: () => this.listener?.capacity?.(),
      stray: (worker: PoolWorker, stray: StrayError) => this.strayError(worker, stray),
      lost: (worker: PoolWorker, reason: string) => this.lost(worker, `worker lost: ${reason}`),
      holdEnds: () => this.deferred > 0,
    };
    const later = (delayNanos: number, fn: () => void) =>
      this.setTimer(this.now() + delayNanos, fn);
    this.workers = new WorkerPool(this.origin, limits, events, later, true, true);
    this.workers.setTarget(workers);
    this.outbox = new Outbox(
      (worker) => !this.closed && this.workers.holds(worker),
      (worker, dispatch, error) => this.unclonable(worker, dispatch, error),
    );
    this.hardKill = new HardKill(
      () => this.now(),
      () => this.workers.all(),
      (worker, why, cancelled) => this.kill(worker, why, cancelled),
    );
    this.hardKill.start();
  }

  now(): number {
    return nanosSince(this.origin);
  }

  get workerCount(): number {
    return this.workers.target;
  }

  /** Resolves when every current worker has started and calibrated its kernels. */
  async ready(): Promise<void> {
    await this.workers.ready();
  }

  setWorkerCount(count: number): void {
    this.assertOpen();
    for (const worker of this.workers.setTarget(checkCount(count))) {
      // Busy workers beyond the target finish their quantum first (see `finish`); what is queued
      // there and not started goes back to the executor.
      this.takeBackQueued(worker);
      this.retireIfDone(worker);
    }
  }

  /**
   * Whether a split of module export `ref` may be queued: one of the first `MAX_MODULE_EXPORTS`
   * this backend took, or room for another, which it takes now (flat-messages.ts `ModuleIds`).
   */
  admitModule(ref: ModuleRef): boolean {
    return this.moduleIds.admit(ref);
  }

  /** Busy workers, lowest first, with nothing queued yet (see `enqueue`). */
  queueableWorkers(): number[] {
    return this.workers.queueable();
  }

  /** How many more dispatches busy worker `workerId` can hold queued (Backend.queueRoom). */
  queueRoom(workerId: number): number {
    const worker = this.workers.get(workerId);
    if (worker === undefined || worker.id >= this.workers.target || worker.running === null)
      return 0;
    return MAX_QUEUED - worker.queuedCount;
  }

  idleWorkers(): number[] {
    return this.workers.idle();
  }

  start(dispatch: Dispatch): void {
    this.assertOpen();
    const worker = this.workers.get(dispatch.workerId);
    if (worker === undefined || !this.takes(worker, dispatch) || worker.running !== null) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${dispatch.workerId} is not an idle worker`,
        'workerId',
      );
    }
    this.assertNotRunning(dispatch.splitId);
    worker.run(dispatch, this.now());
    this.running.set(dispatch.splitId, worker);
    Atomics.store(worker.control, CONTROL.CANCEL, NO_SPLIT);
    Atomics.store(worker.control, CONTROL.CUT_SPLIT, NO_SPLIT);
    if (!this.lostContinuation(worker, dispatch)) this.post(worker, dispatch, undefined);
  }

  /**
   * Queues `dispatch` on a busy worker (one of `queueableWorkers()`): the worker starts it the
   * moment its running quantum ends. Backend.ts has the contract.
   */
  enqueue(dispatch: Dispatch): void {
    this.assertOpen();
    const worker = this.workers.get(dispatch.workerId);
    if (
      worker === undefined ||
      !this.takes(worker, dispatch) ||
      worker.running === null ||
      worker.queuedCount >= MAX_QUEUED
    ) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${dispatch.workerId} is not a busy worker with room for a queued dispatch (at most ${MAX_QUEUED})`,
        'workerId',
      );
    }
    this.assertNotRunning(dispatch.splitId);
    this.running.set(dispatch.splitId, worker);
    const ticket = worker.queue(dispatch);
    if (!this.lostContinuation(worker, dispatch)) this.post(worker, dispatch, ticket);
  }

  /**
   * The worker split `splitId`'s next quantum must run on (its call is suspended there in
   * `await ctx.yield()`), or −1: anywhere. A worker beyond a lowered worker count still holds
   * such calls: it stays until they have ended (`retireIfDone`) and takes their quanta. A worker
   * lost since answers −1; the split's next start then fails with `WORKER_LOST` (its continuation
   * is gone).
   */
  affinity(splitId: number): number {
    const worker = this.suspended.get(splitId);
    if (worker === undefined || !this.workers.holds(worker)) return -1;
    return worker.id;
  }

  /** Whether `worker` takes `dispatch`: within the count, or its split's call is suspended there. */
  private takes(worker: PoolWorker, dispatch: Dispatch): boolean {
    return worker.id < this.workers.target || this.suspended.get(dispatch.splitId) === worker;
  }

  /**
   * Retires `worker`, beyond the worker count, once it is idle and holds no suspended call:
   * retiring it sooner would fail every run suspended there with `WORKER_LOST`.
   */
  private retireIfDone(worker: PoolWorker): void {
    // Within the count first: this runs at every quantum end, and almost always stops here.
    if (worker.id < this.workers.target || worker.running !== null) return;
    // Gone already (a late grace timer): its id may be a fresh worker's now.
    if (!this.workers.holds(worker)) return;
    for (const home of this.suspended.values()) if (home === worker) return;
    this.workers.retireIfIdle(worker);
  }

  /**
   * A split suspended on a worker other than `worker` (that worker was lost or retired, or
   * the caller ignored `affinity`) cannot continue: its dispatch fails `WORKER_LOST` unsent, and
   * a retry starts the call over. True when it did.
   */
  private lostContinuation(worker: PoolWorker, dispatch: Dispatch): boolean {
    const home = this.suspended.get(dispatch.splitId);
    if (home === undefined || home === worker) return false;
    this.suspended.delete(dispatch.splitId);
    const id = dispatch.splitId;
    const why = `worker lost: worker ${home.id} held the split suspended in ctx.yield()`;
    if (worker.running !== dispatch) {
      this.failUnsent(worker, dispatch, why, 'WORKER_LOST');
      return true;
    }
    // Started on an idle worker: it stays busy until the end is told, or the executor, still in
    // its dispatch loop, would find it idle and start another split there meanwhile.
    const at = this.now();
    this.later(() => {
      if (worker.running !== dispatch) return; // its worker was lost meanwhile: ended there
      this.release(worker, id, this.now());
      this.emit(failedEnd(id, worker.id, at, this.now(), why, 'WORKER_LOST'));
    });
    return true;
  }

  /**
   * Takes back the dispatches queued on `worker` that it has not started, from the last (it starts
   * the first first); each goes back to the executor, `yielded` unstarted. False when it had
   * started one: the quanta before it have ended.
   */
  private takeBackQueued(worker: PoolWorker): boolean {
    for (let i = worker.queuedCount - 1; i >= 0; i--) {
      const queued = worker.queuedAt(i)!;
      if (!worker.revoke(queued.splitId)) return false;
      this.running.delete(queued.splitId);
      this.endUnstarted(queued, worker.id, 'yielded');
    }
    return true;
  }

  /** Takes back a queued dispatch the worker has not started; true when it never will. */
  revoke(splitId: number): boolean {
    const worker = this.running.get(splitId);
    if (worker === undefined || worker.running?.splitId === splitId || !worker.revoke(splitId)) {
      return false;
    }
    this.running.delete(splitId);
    return true;
  }

  /**
   * A running split stops at its next unit boundary; a queued one not started ends `cancelled`
   * now; a split not running just drops its state.
   */
  cancel(splitId: number): void {
    const worker = this.running.get(splitId);
    if (worker === undefined) {
      this.moduleState.delete(splitId);
      this.dropSuspended(splitId);
      return;
    }
    const at = worker.indexOf(splitId);
    if (at >= 0) {
      const queued = worker.queuedAt(at)!;
      if (this.revoke(splitId)) {
        this.moduleState.delete(splitId);
        this.dropSuspended(splitId);
        this.endUnstarted(queued, worker.id, 'cancelled');
        return;
      }
      // Started already: the quanta before it have ended; the cancel word is its unless the
      // worker has gone on to the next.
      worker.cancelStarted(splitId);
      if (!worker.startedAt(at + 1)) Atomics.store(worker.control, CONTROL.CANCEL, splitId);
      return;
    }
    worker.cancelAsked = true;
    if (worker.cancelAt === null) {
      worker.cancelAt = this.now();
      this.hardKill.cancelled(worker.cancelAt); // a module that does not stop is killed soon
    }
    // Once the queued dispatch has started, this one has ended: leave the word to the other.
    if (!worker.queuedStarted()) Atomics.store(worker.control, CONTROL.CANCEL, splitId);
  }

  /**
   * Cuts the quantum running on `workerId` (and one queued there) to at most `quantumNanos` from
   * its start: the worker ends it as a normal yield at the next unit boundary past the cut. A
   * per-call split's call is atomic and runs whole; an idle or unknown worker has nothing to cut.
   */
  shortenQuantum(workerId: number, quantumNanos: number): void {
    this.workers.get(workerId)?.cut(checkCut(quantumNanos));
  }

  /** The running quantum's start: when it was sent, or when its worker finished booting. */
  quantumStart(workerId: number): number | null {
    const worker = this.workers.get(workerId);
    if (worker === undefined || worker.running === null) return null;
    return worker.booted ? worker.sentAt : null;
  }

  /** Interrupts the quantum on `workerId` now (Backend.interrupt): the hard limit's kill. */
  interrupt(workerId: number, why: string, splitId: number): boolean {
    const worker = this.workers.get(workerId);
    worker?.drainEnds(); // an end already published is not interrupted
    if (this.closed || worker === undefined || worker.running?.splitId !== splitId) return false;
    return this.kill(worker, why, false, 'INTERRUPTED');
  }

  /** The hard limit (hard-kill.ts; 0 = auto). */
  setHardKill(afterNanos: number): void {
    if (!this.closed) this.hardKill.set(afterNanos); // closed: nothing runs to watch
  }

  setTimer(atNanos: number, fn: () => void): () => void {
    return this.timers.set(atNanos, fn);
  }

  setListener(events: BackendEvents): void {
    this.listener = events;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hardKill.stop();
    this.timers.clear();
    // Calls suspended in `await ctx.yield()` (those of splits just cancelled, whose drops wait in
    // the outbox, and any left) are dropped before the threads end: each await rejects, so the
    // call's `finally` blocks run. Terminated at once, the threads ran none of them. Calls in a
    // quantum now (cancelled by the executor's close: their next `ctx.yield()` rejects and
    // `ctx.signal` aborts) get the same grace: terminated at once, mid-quantum, they ran nothing.
    let running = 0;
    for (const worker of this.workers.all()) if (worker.running !== null) running++;
    const drops = this.outbox.takeDrops();
    for (const [splitId, worker] of this.suspended) drops.push({ worker, splitId });
    this.outbox.clear();
    this.running.clear();
    this.moduleState.clear();
    this.suspended.clear();
    let sent = 0;
    for (const { worker, splitId } of drops) {
      if (!this.workers.holds(worker)) continue;
      try {
        worker.host.post({ type: 'drop', splitId });
        sent++;
      } catch {
        // its thread is gone already
      }
    }
    if (sent + running > 0) await new Promise((r) => setTimeout(r, CLOSE_DROP_GRACE_MS));
    await this.workers.close();
  }

  private finish(worker: PoolWorker, measured: QuantumReport): void {
    const dispatch = worker.running;
    if (dispatch === null || dispatch.splitId !== measured.splitId) return;
    // A quantum can end `yielded` just as its cancel request lands: the split never runs again,
    // so its state must not be kept (nor a failure injected, which the executor would retry).
    const cancelled =
      worker.cancelAsked || Atomics.load(worker.control, CONTROL.CANCEL) === dispatch.splitId;
    const report = cancelled ? measured : this.faults.apply(measured, dispatch.work);
    // Where the call now suspended lives, told before the release: a worker beyond a lowered
    // count retires there once idle, unless it holds a suspended call — this one included.
    if (measured.suspended === true) this.suspended.set(dispatch.splitId, worker);
    else this.suspended.delete(dispatch.splitId); // its last call suspended here may have ended
    this.release(worker, dispatch.splitId, report.endNanos);
    // Cancelled as it parked (the split never runs again), or failed by fault injection (a retry
    // starts over): the call is not continued, so the worker lets it go.
    if (measured.suspended === true && (cancelled || report.outcome !== 'yielded')) {
      this.dropSuspended(dispatch.splitId);
    }
    if (report.outcome === 'yielded' && 'state' in report && !cancelled) {
      this.moduleState.set(dispatch.splitId, report.state);
    } else if (report.outcome !== 'blocked') {
      this.moduleState.delete(dispatch.splitId);
    }
    if (this.listener?.transientEnd !== true) {
      this.emit(measuredEnd(report, worker.id));
      return;
    }
    this.emit(refillEnd(this.sharedEnd, report, worker.id));
    // Reused for the next end: holding on to this one's result until then would keep it alive
    // after its run's caller let go of it.
    this.sharedEnd.result = undefined;
    this.sharedEnd.cause = undefined;
  }

  /**
   * The hard limit (hard-kill.ts): terminates `worker`'s thread and ends what ran there as if the
   * worker had died, the split `failed` (or `cancelled`, when it was asked to stop) with
   * `QUANTUM_OVERRUN_KILLED`; a fresh thread takes its place at once. What is queued there goes
   * back to the executor first, taken back so that the thread, between its call's end and its
   * terminate, cannot start one that then runs elsewhere too. False when it had started one (the
   * call ended meanwhile, its end on the way): nothing is killed.
   */
  private kill(
    worker: PoolWorker,
    why: string,
    cancelled: boolean,
    code: 'QUANTUM_OVERRUN_KILLED' | 'INTERRUPTED' = 'QUANTUM_OVERRUN_KILLED',
  ): boolean {
    if (this.closed || !this.workers.holds(worker) || !this.takeBackQueued(worker)) return false;
    void worker.host.retire();
    const kind = code === 'INTERRUPTED' ? 'interrupt' : 'hard-kill';
    const split = worker.running === null ? '' : ` (split ${worker.running.splitId})`;
    this.listener?.notice?.(kind, `worker ${worker.id}${split} ${why}`);
    this.lost(worker, why, code, cancelled ? 'cancelled' : 'failed');
    return true;
  }

  /** An error from a module whose split has ended (protocol.ts): an event; no split fails. */
  private strayError(worker: PoolWorker, stray: StrayError): void {
    const from =
      stray.splitId === null
        ? 'code of no known split'
        : `split ${stray.splitId} (module ${stray.module ?? '?'}), after that split's quantum ended,`;
    const detail = `uncaught error on worker ${worker.id} from ${from}: ${stray.error}; no split was failed`;
    this.listener?.notice?.('late-error', detail, stray.splitId ?? undefined);
  }

  private lost(
    worker: PoolWorker,
    why: string,
    code: 'WORKER_LOST' | 'QUANTUM_OVERRUN_KILLED' | 'INTERRUPTED' = 'WORKER_LOST',
    outcome: 'failed' | 'cancelled' = 'failed',
  ): void {
    if (this.closed || !this.workers.holds(worker)) return;
    const { running: dispatch, all, started } = worker.abandon();
    for (const queued of all) this.running.delete(queued.splitId);
    if (dispatch !== null) this.running.delete(dispatch.splitId);
    // Replace first, so the executor finds the worker idle again when it hears of the loss.
    this.workers.replace(worker);
    // Queued dispatches the worker never started only go back to the executor (their module
    // state stays); those it started (their ends never came) fail with the running one, the
    // last started first.
    for (let i = started; i < all.length; i++)
      this.endUnstarted(all[i]!, worker.id, 'yielded', false);
    const failed = [...all.slice(0, started).reverse(), dispatch];
    for (const lostOne of failed) {
      if (lostOne === null) continue;
      this.moduleState.delete(lostOne.splitId);
      this.suspended.delete(lostOne.splitId); // a retry starts over, anywhere
      const end = failedEnd(lostOne.splitId, worker.id, worker.sentAt, this.now(), why, code);
      this.emit(outcome === 'failed' ? end : { ...end, outcome });
    }
  }

  /** Posts a dispatch (at the end of the turn, outbox.ts). */
  private post(worker: PoolWorker, dispatch: Dispatch, ticket: Ticket | undefined): void {
    const id = dispatch.splitId;
    const { input, transfer } = dispatch.work;
    let first: unknown = input;
    // A later quantum sends the state its module yielded, or nothing when its call is suspended
    // in `await ctx.yield()` there (it goes on where it is): only the first sends the run's input
    // (not cloned again each quantum), and moves what its `transferList` names.
    if (this.moduleState.has(id)) first = this.moduleState.get(id);
    else if (this.suspended.has(id)) first = undefined;
    else if (transfer !== undefined) {
      const moves = transfer as readonly Transferable[];
      postDispatch(worker, this.moduleIds, dispatch, input, ticket, this.outbox, moves);
      return;
    }
    postDispatch(worker, this.moduleIds, dispatch, first, ticket, this.outbox);
  }

  /** A dispatch whose input could not be cloned never reached its worker: its split fails. */
  private unclonable(worker: PoolWorker, dispatch: Dispatch, error: unknown): void {
    this.suspended.delete(dispatch.splitId);
    const why = `unclonable input: ${error instanceof Error ? error.message : String(error)}`;
    this.failUnsent(worker, dispatch, why, 'KERNEL_FAILED');
  }

  /** A dispatch that never reached its worker fails (its end comes after the caller returns). */
  private failUnsent(
    worker: PoolWorker,
    dispatch: Dispatch,
    why: string,
    code: 'KERNEL_FAILED' | 'WORKER_LOST',
  ): void {
    const id = dispatch.splitId;
    const at = this.now();
    if (worker.running === dispatch) this.release(worker, id, at);
    else if (worker.revoke(id)) this.running.delete(id);
    else return; // taken back or ended since (a lost worker's)
    this.later(() => this.emit(failedEnd(id, worker.id, at, this.now(), why, code)));
  }

  /** Frees split `splitId`'s call suspended in a worker, if any: that worker rejects its await. */
  private dropSuspended(splitId: number): void {
    const worker = this.suspended.get(splitId);
    if (worker === undefined) return;
    this.suspended.delete(splitId);
    if (!this.workers.holds(worker)) return;
    this.outbox.send(worker, { type: 'drop', splitId }, null);
    // Beyond the worker count, it may now retire; first its thread rejects the call's await, so
    // the call's `finally` blocks run (retiring terminates the thread).
    if (worker.id >= this.workers.target) {
      this.timers.set(this.now() + DROP_GRACE_NANOS, () => this.retireIfDone(worker));
    }
  }

  /** Ends a queued dispatch that never ran: no work, no time (`later`: after the caller returns). */
  private endUnstarted(dispatch: Dispatch, workerId: number, outcome: Unstarted, later = true) {
    const end = unstartedEnd(dispatch.splitId, workerId, this.now(), outcome);
    if (later) this.later(() => this.emit(end));
    else this.emit(end);
  }

  /** The running dispatch ended at `at`: the queued one runs next, or the worker is idle. */
  private release(worker: PoolWorker, splitId: number, at: number): void {
    this.running.delete(splitId);
    worker.advance(at);
    // A queued split cancelled after the worker had started it runs now: its grace counts.
    if (worker.cancelAt !== null) this.hardKill.cancelled(worker.cancelAt);
    this.retireIfDone(worker);
  }

  /**
   * Runs `fn` (an end told on a worker's behalf) once the caller has returned. Until then the
   * ends workers published wait (`holdEnds`): read now, one could overtake it — the end of the
   * quantum before a queued dispatch taken back, read ahead of that dispatch's own end, would
   * make it look started.
   */
  private later(fn: () => void): void {
    this.deferred++;
    queueMicrotask(() => {
      this.deferred--;
      fn();
    });
  }

  private emit(end: QuantumEnd): void {
    this.listener?.quantumEnd(end);
  }

  private assertNotRunning(splitId: number): void {
    if (this.running.has(splitId)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `splitId ${splitId} is already running`,
        'splitId',
      );
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the threads backend is closed');
  }
}
