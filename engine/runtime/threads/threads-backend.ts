/**
 * The `threads` backend (docs/design.md §4): a pool of worker threads doing real CPU work, one quantum
 * per dispatch. This file is the dispatch side: starting, queueing, cancelling and cutting quanta,
 * and turning what workers report into quantum ends. The workers themselves — ids as lanes, their
 * lifecycle, replacement and retirement — are lane-pool.ts; a worker that dies is replaced at once
 * and its in-flight split ends `failed` with `worker lost: <reason>` (the executor decides whether
 * to retry). A busy worker can also hold one queued dispatch (`enqueue`, lane.ts) that it starts as
 * soon as its quantum ends, so an executor that keeps the queue full never leaves a worker waiting
 * for the main thread between quanta.
 *
 * Messages vs shared memory: a dispatch carries structured work (kernel or module, its input, a
 * module's yielded state) and lasts a quantum (milliseconds). A round trip worker → main → worker
 * still costs ≈ 0.2 ms on 2 shared cores (waking each side, one event-loop turn each), 10 % of a
 * 2 ms quantum: hence the queued dispatch, which takes the main thread off the worker's path.
 * Shared memory is used where a message cannot help: a worker busy in a kernel reads its cancel
 * word between units, and a queued dispatch's ticket (control.ts). A user module's quantum and its
 * end cross as flat arrays, its module named by an id sent once per worker (flat-messages.ts):
 * for tiny tasks the clone of a nested dispatch cost more than the task.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../backend.ts';
import { nanosSince, originNow } from './clock.ts';
import { CONTROL, MAX_QUEUED, NO_SPLIT } from './control.ts';
import type { Lane, Ticket } from './lane.ts';
import { LanePool } from './lane-pool.ts';
import type { QuantumReport, StrayError } from './protocol.ts';
import { ModuleIds, postDispatch } from './flat-messages.ts';
import { FaultInjector } from './fault-injection.ts';
import { HardKill } from './hard-kill.ts';
import { Outbox } from './outbox.ts';
import { failedEnd, measuredEnd, unstartedEnd, type Unstarted } from './quantum-ends.ts';
import {
  checkCount,
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

export class ThreadsBackend implements Backend {
  readonly kind = 'threads';
  private readonly origin = originNow();
  private readonly lanes: LanePool;
  private readonly timers = new WallTimers(() => this.now());
  /** State a user module yielded, by split: the input of its next quantum. */
  private readonly moduleState = new Map<number, unknown>();
  /**
   * The lane whose worker holds a split's call suspended in `await ctx.yield()` (quantum-runner.ts):
   * its next quantum must run there (`affinity`). Kept until a quantum of the split ends other
   * than suspended, it fails, or it is cancelled; a lost lane's entries fail their next start.
   */
  private readonly suspended = new Map<number, Lane>();
  /** The lane of every split running or queued. */
  private readonly running = new Map<number, Lane>();
  /** Ids of user modules' refs, for the flat dispatch of a module's quantum (flat-messages.ts). */
  private readonly moduleIds = new ModuleIds();
  private readonly faults: FaultInjector;
  private readonly hardKill: HardKill;
  /** Messages to workers, posted once a turn (outbox.ts). */
  private readonly outbox: Outbox;
  private listener: BackendEvents | null = null;
  private closed = false;

  constructor(options: ThreadsBackendOptions = {}) {
    const workers = checkCount(options.workers ?? availableParallelism());
    this.faults = new FaultInjector(options.seed);
    const limits: ResourceLimits = { ...DEFAULT_RESOURCE_LIMITS, ...options.resourceLimits };
    const events = {
      ready: (lane: Lane) => {
        // A dispatch that waited in the port of a worker still starting runs from now.
        if (lane.running !== null) lane.sentAt = Math.max(lane.sentAt, this.now());
      },
      end: (lane: Lane, report: QuantumReport) => this.finish(lane, report),
      stray: (lane: Lane, stray: StrayError) => this.strayError(lane, stray),
      lost: (lane: Lane, reason: string) => this.lost(lane, `worker lost: ${reason}`),
    };
    const later = (delayNanos: number, fn: () => void) =>
      this.setTimer(this.now() + delayNanos, fn);
    this.lanes = new LanePool(this.origin, limits, events, later, true);
    this.lanes.setTarget(workers);
    this.outbox = new Outbox(
      (lane) => !this.closed && this.lanes.holds(lane),
      (lane, dispatch, error) => this.unclonable(lane, dispatch, error),
    );
    this.hardKill = new HardKill(
      () => this.now(),
      () => this.lanes.all(),
      (lane, why, cancelled) => this.kill(lane, why, cancelled),
    );
    this.hardKill.start();
  }

  now(): number {
    return nanosSince(this.origin);
  }

  get workerCount(): number {
    return this.lanes.target;
  }

  /** Resolves when every current worker has started and calibrated its kernels. */
  async ready(): Promise<void> {
    await this.lanes.ready();
  }

  setWorkerCount(count: number): void {
    this.assertOpen();
    for (const slot of this.lanes.setTarget(checkCount(count))) {
      // Busy workers beyond the target finish their quantum first (see `finish`); what is queued
      // there and not started goes back to the executor (from the last: the worker takes the
      // first ones first).
      for (let i = slot.queuedCount - 1; i >= 0; i--) {
        const queued = slot.queuedAt(i)!;
        if (!slot.revoke(queued.splitId)) break;
        this.running.delete(queued.splitId);
        this.endUnstarted(queued, slot.id, 'yielded');
      }
      this.lanes.retireIfIdle(slot);
    }
  }

  /** Busy workers, lowest first, with nothing queued yet (see `enqueue`). */
  queueableWorkers(): number[] {
    return this.lanes.queueable();
  }

  /** How many more dispatches busy worker `workerId` can hold queued (Backend.queueRoom). */
  queueRoom(workerId: number): number {
    const lane = this.lanes.get(workerId);
    if (lane === undefined || lane.id >= this.lanes.target || lane.running === null) return 0;
    return MAX_QUEUED - lane.queuedCount;
  }

  idleWorkers(): number[] {
    return this.lanes.idle();
  }

  start(dispatch: Dispatch): void {
    this.assertOpen();
    const slot = this.lanes.get(dispatch.workerId);
    if (slot === undefined || slot.id >= this.lanes.target || slot.running !== null) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${dispatch.workerId} is not an idle worker`,
        'workerId',
      );
    }
    this.assertNotRunning(dispatch.splitId);
    slot.run(dispatch, this.now());
    this.running.set(dispatch.splitId, slot);
    Atomics.store(slot.control, CONTROL.CANCEL, NO_SPLIT);
    Atomics.store(slot.control, CONTROL.CUT_SPLIT, NO_SPLIT);
    if (!this.lostContinuation(slot, dispatch)) this.post(slot, dispatch, undefined);
  }

  /**
   * Queues `dispatch` on a busy worker (one of `queueableWorkers()`): the worker starts it the
   * moment its running quantum ends. Backend.ts has the contract.
   */
  enqueue(dispatch: Dispatch): void {
    this.assertOpen();
    const slot = this.lanes.get(dispatch.workerId);
    if (
      slot === undefined ||
      slot.id >= this.lanes.target ||
      slot.running === null ||
      slot.queuedCount >= MAX_QUEUED
    ) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${dispatch.workerId} is not a busy worker with room for a queued dispatch (at most ${MAX_QUEUED})`,
        'workerId',
      );
    }
    this.assertNotRunning(dispatch.splitId);
    this.running.set(dispatch.splitId, slot);
    const ticket = slot.queue(dispatch);
    if (!this.lostContinuation(slot, dispatch)) this.post(slot, dispatch, ticket);
  }

  /**
   * The worker split `splitId`'s next quantum must run on (its call is suspended there in
   * `await ctx.yield()`), or −1: anywhere. A worker lost or retired since answers −1; the split's
   * next start then fails with `WORKER_LOST` (its continuation is gone).
   */
  affinity(splitId: number): number {
    const lane = this.suspended.get(splitId);
    if (lane === undefined || !this.lanes.holds(lane) || lane.id >= this.lanes.target) return -1;
    return lane.id;
  }

  /**
   * A split suspended on a lane other than `slot` (that lane's worker was lost or retired, or
   * the caller ignored `affinity`) cannot continue: its dispatch fails `WORKER_LOST` unsent, and
   * a retry starts the call over. True when it did.
   */
  private lostContinuation(slot: Lane, dispatch: Dispatch): boolean {
    const home = this.suspended.get(dispatch.splitId);
    if (home === undefined || home === slot) return false;
    this.suspended.delete(dispatch.splitId);
    const id = dispatch.splitId;
    const why = `worker lost: worker ${home.id} held the split suspended in ctx.yield()`;
    if (slot.running !== dispatch) {
      this.failUnsent(slot, dispatch, why, 'WORKER_LOST');
      return true;
    }
    // Started on an idle lane: it stays busy until the end is told, or the executor, still in
    // its dispatch loop, would find it idle and start another split there meanwhile.
    const at = this.now();
    queueMicrotask(() => {
      if (slot.running !== dispatch) return; // its worker was lost meanwhile: ended there
      this.release(slot, id, this.now());
      this.emit(failedEnd(id, slot.id, at, this.now(), why, 'WORKER_LOST'));
    });
    return true;
  }

  /** Takes back a queued dispatch the worker has not started; true when it never will. */
  revoke(splitId: number): boolean {
    const slot = this.running.get(splitId);
    if (slot === undefined || slot.running?.splitId === splitId || !slot.revoke(splitId)) {
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
    const slot = this.running.get(splitId);
    if (slot === undefined) {
      this.moduleState.delete(splitId);
      this.dropSuspended(splitId);
      return;
    }
    const at = slot.indexOf(splitId);
    if (at >= 0) {
      const queued = slot.queuedAt(at)!;
      if (this.revoke(splitId)) {
        this.moduleState.delete(splitId);
        this.dropSuspended(splitId);
        this.endUnstarted(queued, slot.id, 'cancelled');
        return;
      }
      // Started already: the quanta before it have ended; the cancel word is its unless the
      // worker has gone on to the next.
      slot.cancelStarted(splitId);
      if (!slot.startedAt(at + 1)) Atomics.store(slot.control, CONTROL.CANCEL, splitId);
      return;
    }
    slot.cancelAsked = true;
    slot.cancelAt ??= this.now();
    // Once the queued dispatch has started, this one has ended: leave the word to the other.
    if (!slot.queuedStarted()) Atomics.store(slot.control, CONTROL.CANCEL, splitId);
  }

  /**
   * Cuts the quantum running on `workerId` (and one queued there) to at most `quantumNanos` from
   * its start: the worker ends it as a normal yield at the next unit boundary past the cut. A
   * per-call split's call is atomic and runs whole; an idle or unknown worker has nothing to cut.
   */
  shortenQuantum(workerId: number, quantumNanos: number): void {
    this.lanes.get(workerId)?.cut(checkCut(quantumNanos));
  }

  /** The running quantum's start: when it was sent, or when its worker finished booting. */
  quantumStart(workerId: number): number | null {
    const lane = this.lanes.get(workerId);
    if (lane === undefined || lane.running === null) return null;
    return lane.booted ? lane.sentAt : null;
  }

  /** Interrupts the quantum on `workerId` now (Backend.interrupt): the hard limit's kill. */
  interrupt(workerId: number, why: string): boolean {
    const lane = this.lanes.get(workerId);
    if (this.closed || lane === undefined || lane.running === null) return false;
    this.kill(lane, why, false, 'INTERRUPTED');
    return true;
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
    this.outbox.clear();
    this.running.clear();
    this.moduleState.clear();
    this.suspended.clear();
    await this.lanes.close();
  }

  private finish(slot: Lane, measured: QuantumReport): void {
    const dispatch = slot.running;
    if (dispatch === null || dispatch.splitId !== measured.splitId) return;
    // A quantum can end `yielded` just as its cancel request lands: the split never runs again,
    // so its state must not be kept (nor a failure injected, which the executor would retry).
    const cancelled =
      slot.cancelAsked || Atomics.load(slot.control, CONTROL.CANCEL) === dispatch.splitId;
    const report = cancelled ? measured : this.faults.apply(measured, dispatch.work);
    this.release(slot, dispatch.splitId, report.endNanos);
    this.suspended.delete(dispatch.splitId);
    if (measured.suspended === true) {
      this.suspended.set(dispatch.splitId, slot);
      // Cancelled as it parked (the split never runs again), or failed by fault injection (a
      // retry starts over): the call is not continued, so the worker lets it go.
      if (cancelled || report.outcome !== 'yielded') this.dropSuspended(dispatch.splitId);
    }
    if (report.outcome === 'yielded' && 'state' in report && !cancelled) {
      this.moduleState.set(dispatch.splitId, report.state);
    } else if (report.outcome !== 'blocked') {
      this.moduleState.delete(dispatch.splitId);
    }
    this.emit(measuredEnd(report, slot.id));
  }

  /**
   * The hard limit (hard-kill.ts): terminates `slot`'s worker and ends what ran there as if the
   * worker had died, the split `failed` (or `cancelled`, when it was asked to stop) with
   * `QUANTUM_OVERRUN_KILLED`; a fresh worker takes the lane at once.
   */
  private kill(
    slot: Lane,
    why: string,
    cancelled: boolean,
    code: 'QUANTUM_OVERRUN_KILLED' | 'INTERRUPTED' = 'QUANTUM_OVERRUN_KILLED',
  ): void {
    if (this.closed || !this.lanes.holds(slot)) return;
    void slot.host.retire();
    const kind = code === 'INTERRUPTED' ? 'interrupt' : 'hard-kill';
    this.listener?.notice?.(kind, `worker ${slot.id} ${why}`);
    this.lost(slot, why, code, cancelled ? 'cancelled' : 'failed');
  }

  /** An error from a module whose split has ended (protocol.ts): an event; no split fails. */
  private strayError(slot: Lane, stray: StrayError): void {
    const from =
      stray.splitId === null
        ? 'code of no known split'
        : `split ${stray.splitId} (module ${stray.module ?? '?'}), after that split's quantum ended,`;
    const detail = `uncaught error on worker ${slot.id} from ${from}: ${stray.error}; no split was failed`;
    this.listener?.notice?.('late-error', detail, stray.splitId ?? undefined);
  }

  private lost(
    slot: Lane,
    why: string,
    code: 'WORKER_LOST' | 'QUANTUM_OVERRUN_KILLED' | 'INTERRUPTED' = 'WORKER_LOST',
    outcome: 'failed' | 'cancelled' = 'failed',
  ): void {
    if (this.closed || !this.lanes.holds(slot)) return;
    const { running: dispatch, all, started } = slot.abandon();
    for (const queued of all) this.running.delete(queued.splitId);
    if (dispatch !== null) this.running.delete(dispatch.splitId);
    // Replace first, so the executor finds the lane idle again when it hears of the loss.
    this.lanes.replace(slot);
    // Queued dispatches the worker never started only go back to the executor (their module
    // state stays); those it started (their ends never came) fail with the running one, the
    // last started first.
    for (let i = started; i < all.length; i++)
      this.endUnstarted(all[i]!, slot.id, 'yielded', false);
    const failed = [...all.slice(0, started).reverse(), dispatch];
    for (const lostOne of failed) {
      if (lostOne === null) continue;
      this.moduleState.delete(lostOne.splitId);
      this.suspended.delete(lostOne.splitId); // a retry starts over, anywhere
      const end = failedEnd(lostOne.splitId, slot.id, slot.sentAt, this.now(), why, code);
      this.emit(outcome === 'failed' ? end : { ...end, outcome });
    }
  }

  /** Posts a dispatch (at the end of the turn, outbox.ts). */
  private post(slot: Lane, dispatch: Dispatch, ticket: Ticket | undefined): void {
    const input = this.moduleState.has(dispatch.splitId)
      ? this.moduleState.get(dispatch.splitId)
      : dispatch.work.input;
    postDispatch(slot, this.moduleIds, dispatch, input, ticket, this.outbox);
  }

  /** A dispatch whose input could not be cloned never reached its worker: its split fails. */
  private unclonable(slot: Lane, dispatch: Dispatch, error: unknown): void {
    this.suspended.delete(dispatch.splitId);
    const why = `unclonable input: ${error instanceof Error ? error.message : String(error)}`;
    this.failUnsent(slot, dispatch, why, 'KERNEL_FAILED');
  }

  /** A dispatch that never reached its worker fails (its end comes after the caller returns). */
  private failUnsent(
    slot: Lane,
    dispatch: Dispatch,
    why: string,
    code: 'KERNEL_FAILED' | 'WORKER_LOST',
  ): void {
    const id = dispatch.splitId;
    const at = this.now();
    if (slot.running === dispatch) this.release(slot, id, at);
    else if (slot.revoke(id)) this.running.delete(id);
    else return; // taken back or ended since (a lost worker's)
    queueMicrotask(() => this.emit(failedEnd(id, slot.id, at, this.now(), why, code)));
  }

  /** Frees split `splitId`'s call suspended in a worker, if any: that worker rejects its await. */
  private dropSuspended(splitId: number): void {
    const lane = this.suspended.get(splitId);
    if (lane === undefined) return;
    this.suspended.delete(splitId);
    if (this.lanes.holds(lane)) this.outbox.send(lane, { type: 'drop', splitId }, null);
  }

  /** Ends a queued dispatch that never ran: no work, no time (`later`: after the caller returns). */
  private endUnstarted(dispatch: Dispatch, workerId: number, outcome: Unstarted, later = true) {
    const end = unstartedEnd(dispatch.splitId, workerId, this.now(), outcome);
    if (later) queueMicrotask(() => this.emit(end));
    else this.emit(end);
  }

  /** The running dispatch ended at `at`: the queued one runs next, or the lane is idle. */
  private release(slot: Lane, splitId: number, at: number): void {
    this.running.delete(splitId);
    slot.advance(at);
    this.lanes.retireIfIdle(slot);
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
