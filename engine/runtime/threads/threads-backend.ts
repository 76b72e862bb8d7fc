/**
 * The `threads` backend (DESIGN.md §4): a pool of worker threads doing real CPU work, one quantum
 * per dispatch. Worker ids are lanes: a replaced worker keeps its id, a grown pool takes the lowest
 * free ids, a shrunk pool retires the highest.
 *
 * Worker lifecycle (per id): `idle → busy → idle`; a busy worker whose id is beyond the target
 * count retires when its quantum ends; a worker that dies is replaced at once and its in-flight
 * split ends `failed` with `worker lost: <reason>` (the executor decides whether to retry).
 * A worker still starting up counts as idle: its first dispatch waits in the port's queue and is
 * stamped when it really starts. A busy worker can also hold one queued dispatch (`enqueue`,
 * lane.ts) that it starts as soon as its quantum ends, so an executor that keeps the queue full
 * never leaves a worker waiting for the main thread between quanta.
 *
 * Messages vs shared memory: a dispatch carries structured work (kernel or module, its input, a
 * module's yielded state) and lasts a quantum (milliseconds). A round trip worker → main → worker
 * still costs ≈ 0.2 ms on 2 shared cores (waking each side, one event-loop turn each), 10 % of a
 * 2 ms quantum: hence the queued dispatch, which takes the main thread off the worker's path.
 * Shared memory is used where a message cannot help: a worker busy in a kernel reads its cancel
 * word between units, and a queued dispatch's ticket (control.ts). Tiny tasks, where a message per
 * task would dominate, go through `TaskPool`'s rings instead.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../backend.ts';
import { BootBackoff } from './boot-backoff.ts';
import { nanosSince, originNow } from './clock.ts';
import { CONTROL, NO_SPLIT } from './control.ts';
import { spawnLane, type Lane, type Ticket } from './lane.ts';
import type { QuantumReport } from './protocol.ts';
import { FaultInjector } from './fault-injection.ts';
import { failedEnd, unstartedEnd, type Unstarted } from './quantum-ends.ts';
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
  private readonly slots = new Map<number, Lane>();
  private readonly timers = new WallTimers(() => this.now());
  /** State a user module yielded, by split: the input of its next quantum. */
  private readonly moduleState = new Map<number, unknown>();
  /** The lane of every split running or queued. */
  private readonly running = new Map<number, Lane>();
  private readonly backoff = new BootBackoff();
  private readonly faults: FaultInjector;
  private readonly limits: ResourceLimits;
  private target: number;
  private listener: BackendEvents | null = null;
  private closed = false;

  constructor(options: ThreadsBackendOptions = {}) {
    this.target = checkCount(options.workers ?? availableParallelism());
    this.faults = new FaultInjector(options.seed);
    this.limits = { ...DEFAULT_RESOURCE_LIMITS, ...options.resourceLimits };
    for (let id = 0; id < this.target; id++) this.spawn(id);
  }

  now(): number {
    return nanosSince(this.origin);
  }

  get workerCount(): number {
    return this.target;
  }

  /** Resolves when every current worker has started and calibrated its kernels. */
  async ready(): Promise<void> {
    await Promise.all([...this.slots.values()].map((slot) => slot.ready));
  }

  setWorkerCount(count: number): void {
    this.assertOpen();
    this.target = checkCount(count);
    for (let id = 0; id < this.target; id++) if (!this.slots.has(id)) this.spawn(id);
    for (const slot of [...this.slots.values()]) {
      if (slot.id < this.target) continue;
      // Busy workers beyond the target finish their quantum first (see `finish`); what is queued
      // there and not started goes back to the executor.
      const queued = slot.queued;
      if (queued !== null && slot.revoke()) {
        this.running.delete(queued.splitId);
        this.endUnstarted(queued, slot.id, 'yielded');
      }
      if (slot.running === null) this.retire(slot);
    }
  }

  /** Busy workers, lowest first, that can hold a queued dispatch (see `enqueue`). */
  queueableWorkers(): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.target; id++) {
      const slot = this.slots.get(id);
      if (slot !== undefined && slot.running !== null && slot.queued === null) out.push(id);
    }
    return out;
  }

  idleWorkers(): number[] {
    const idle: number[] = [];
    for (let id = 0; id < this.target; id++) {
      if (this.slots.get(id)?.running === null) idle.push(id);
    }
    return idle;
  }

  start(dispatch: Dispatch): void {
    this.assertOpen();
    const slot = this.slots.get(dispatch.workerId);
    if (slot === undefined || slot.id >= this.target || slot.running !== null) {
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
    this.post(slot, dispatch, undefined);
  }

  /**
   * Queues `dispatch` on a busy worker (one of `queueableWorkers()`): the worker starts it the
   * moment its running quantum ends. Backend.ts has the contract.
   */
  enqueue(dispatch: Dispatch): void {
    this.assertOpen();
    const slot = this.slots.get(dispatch.workerId);
    if (slot === undefined || slot.id >= this.target || slot.running === null || slot.queued) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${dispatch.workerId} is not a busy worker with room for a queued dispatch`,
        'workerId',
      );
    }
    this.assertNotRunning(dispatch.splitId);
    this.running.set(dispatch.splitId, slot);
    this.post(slot, dispatch, slot.queue(dispatch));
  }

  /** Takes back a queued dispatch the worker has not started; true when it never will. */
  revoke(splitId: number): boolean {
    const slot = this.running.get(splitId);
    if (slot?.queued?.splitId !== splitId || !slot.revoke()) return false;
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
      return;
    }
    const queued = slot.queued;
    if (queued?.splitId === splitId) {
      if (this.revoke(splitId)) {
        this.moduleState.delete(splitId);
        this.endUnstarted(queued, slot.id, 'cancelled');
      } else {
        // Started already: the quantum before it has ended, so the cancel word is its alone.
        Atomics.store(slot.control, CONTROL.CANCEL, splitId);
      }
      return;
    }
    slot.cancelAsked = true;
    // Once the queued dispatch has started, this one has ended: leave the word to the other.
    if (!slot.queuedStarted()) Atomics.store(slot.control, CONTROL.CANCEL, splitId);
  }

  /**
   * Cuts the quantum running on `workerId` (and one queued there) to at most `quantumNanos` from
   * its start: the worker ends it as a normal yield at the next unit boundary past the cut. A
   * per-call split's call is atomic and runs whole; an idle or unknown worker has nothing to cut.
   */
  shortenQuantum(workerId: number, quantumNanos: number): void {
    this.slots.get(workerId)?.cut(checkCut(quantumNanos));
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
    this.timers.clear();
    const slots = [...this.slots.values()];
    this.slots.clear();
    this.running.clear();
    this.moduleState.clear();
    await Promise.all(slots.map((slot) => slot.host.retire()));
  }

  private spawn(id: number): void {
    const lane = spawnLane(id, this.origin, this.limits, {
      ready: () => this.backoff.started(id),
      end: (report) => this.finish(lane, report),
      lost: (reason) => this.lost(lane, reason),
    });
    this.slots.set(id, lane);
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
    if (report.outcome === 'yielded' && 'state' in report && !cancelled) {
      this.moduleState.set(dispatch.splitId, report.state);
    } else if (report.outcome !== 'blocked') {
      this.moduleState.delete(dispatch.splitId);
    }
    const { state: _state, ...end } = report;
    this.emit({
      ...end,
      workerId: slot.id,
      ranNanos: Math.max(0, report.endNanos - report.startNanos),
    });
  }

  private lost(slot: Lane, reason: string): void {
    if (this.closed || this.slots.get(slot.id) !== slot) return;
    this.slots.delete(slot.id);
    slot.markReady();
    const { running: dispatch, queued, queuedStarted } = slot.abandon();
    if (queued !== null) this.running.delete(queued.splitId);
    if (dispatch !== null) this.running.delete(dispatch.splitId);
    // Replace first, so the executor finds the lane idle again when it hears of the loss.
    if (slot.id < this.target) {
      if (slot.booted) this.spawn(slot.id);
      else this.respawnLater(slot.id);
    }
    // The queued dispatch's end comes first, as it would have had the worker lived; one the
    // worker never started only goes back to the executor (its module state stays).
    if (queued !== null && !queuedStarted) this.endUnstarted(queued, slot.id, 'yielded', false);
    const failed = queued !== null && queuedStarted ? [queued, dispatch] : [dispatch];
    for (const lostOne of failed) {
      if (lostOne === null) continue;
      this.moduleState.delete(lostOne.splitId);
      this.failed(lostOne, slot.id, slot.sentAt, `worker lost: ${reason}`, 'WORKER_LOST');
    }
  }

  /** Posts a dispatch; input that cannot cross to a worker fails its split after this returns. */
  private post(slot: Lane, dispatch: Dispatch, ticket: Ticket | undefined): void {
    const input = this.moduleState.has(dispatch.splitId)
      ? this.moduleState.get(dispatch.splitId)
      : dispatch.work.input;
    try {
      slot.host.post(
        ticket === undefined
          ? { type: 'run', dispatch, input }
          : { type: 'run', dispatch, input, ticket },
      );
    } catch (error) {
      if (ticket === undefined) this.release(slot, dispatch.splitId, this.now());
      else if (slot.revoke()) this.running.delete(dispatch.splitId);
      const why = error instanceof Error ? error.message : String(error);
      const at = this.now();
      queueMicrotask(() =>
        this.failed(dispatch, slot.id, at, `unclonable input: ${why}`, 'KERNEL_FAILED'),
      );
    }
  }

  /** Ends a queued dispatch that never ran: no work, no time (`later`: after the caller returns). */
  private endUnstarted(dispatch: Dispatch, workerId: number, outcome: Unstarted, later = true) {
    const end = unstartedEnd(dispatch.splitId, workerId, this.now(), outcome);
    if (later) queueMicrotask(() => this.emit(end));
    else this.emit(end);
  }

  private failed(
    dispatch: Dispatch,
    workerId: number,
    startNanos: number,
    error: string,
    code: NonNullable<QuantumEnd['errorCode']>,
  ): void {
    this.emit(failedEnd(dispatch.splitId, workerId, startNanos, this.now(), error, code));
  }

  private respawnLater(id: number): void {
    const delay = this.backoff.failed(id);
    this.setTimer(this.now() + delay * 1e6, () => {
      if (!this.closed && id < this.target && !this.slots.has(id)) this.spawn(id);
    });
  }

  /** The running dispatch ended at `at`: the queued one runs next, or the lane is idle. */
  private release(slot: Lane, splitId: number, at: number): void {
    this.running.delete(splitId);
    slot.advance(at);
    if (slot.running === null && slot.id >= this.target) this.retire(slot);
  }

  private retire(slot: Lane): void {
    this.slots.delete(slot.id);
    slot.markReady();
    void slot.host.retire();
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
