/**
 * The `threads` backend (DESIGN.md §4): a pool of worker threads doing real CPU work, one quantum
 * per dispatch. Worker ids are lanes: a replaced worker keeps its id, a grown pool takes the lowest
 * free ids, a shrunk pool retires the highest.
 *
 * Worker lifecycle (per id): `idle → busy → idle`; a busy worker whose id is beyond the target
 * count retires when its quantum ends; a worker that dies is replaced at once and its in-flight
 * split ends `failed` with `worker lost: <reason>` (the executor decides whether to retry).
 * A worker still starting up counts as idle: its first dispatch waits in the port's queue and is
 * stamped when it really starts.
 *
 * Messages vs shared memory: a dispatch carries structured work (kernel or module, its input, a
 * module's yielded state) and lasts a quantum (milliseconds), so one message each way costs a few
 * per cent at most. Shared memory is used where a message cannot help: a worker busy in a kernel
 * reads its cancel word between units (control.ts). Tiny tasks, where a message per task would
 * dominate, go through `TaskPool`'s rings instead.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { invalidConfig, SchedLabError } from '../../../shared/errors.ts';
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../backend.ts';
import { BootBackoff } from './boot-backoff.ts';
import { nanosSince, originNow } from './clock.ts';
import { CONTROL, createControl, NO_SPLIT } from './control.ts';
import type { FromQuantumWorker, QuantumReport, QuantumWorkerData } from './protocol.ts';
import { WorkerHost } from './worker-host.ts';

export const MAX_WORKERS = 256;

export interface ThreadsBackendOptions {
  /** Default: one per core (`os.availableParallelism()`). */
  readonly workers?: number;
  /** Per worker; e.g. `{ maxOldGenerationSizeMb: 64 }` so a runaway split kills only its worker. */
  readonly resourceLimits?: ResourceLimits;
}

interface Slot {
  readonly id: number;
  host: WorkerHost;
  control: Int32Array;
  running: Dispatch | null;
  /** Backend time the running dispatch was handed over. */
  sentAt: number;
  ready: Promise<void>;
  /** Also called when the worker dies before it is ready, so `ready()` never hangs. */
  markReady: () => void;
  booted: boolean;
}

export class ThreadsBackend implements Backend {
  readonly kind = 'threads';
  private readonly origin = originNow();
  private readonly slots = new Map<number, Slot>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** State a user module yielded, by split: the input of its next quantum. */
  private readonly moduleState = new Map<number, unknown>();
  private readonly running = new Map<number, Slot>();
  private readonly backoff = new BootBackoff();
  private target: number;
  private listener: BackendEvents | null = null;
  private closed = false;

  constructor(private readonly options: ThreadsBackendOptions = {}) {
    this.target = checkCount(options.workers ?? availableParallelism());
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
      // Busy workers beyond the target finish their quantum first (see `finish`).
      if (slot.id >= this.target && slot.running === null) this.retire(slot);
    }
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
    if (this.running.has(dispatch.splitId)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `splitId ${dispatch.splitId} is already running`,
        'splitId',
      );
    }
    slot.running = dispatch;
    slot.sentAt = this.now();
    this.running.set(dispatch.splitId, slot);
    Atomics.store(slot.control, CONTROL.CANCEL, NO_SPLIT);
    const input = this.moduleState.has(dispatch.splitId)
      ? this.moduleState.get(dispatch.splitId)
      : dispatch.work.input;
    try {
      slot.host.post({ type: 'run', dispatch, input });
    } catch (error) {
      // Input that cannot cross to a worker fails its split; reported after `start` returns.
      this.release(slot, dispatch.splitId);
      const why = error instanceof Error ? error.message : String(error);
      const at = this.now();
      queueMicrotask(() => this.failed(dispatch, slot.id, at, `unclonable input: ${why}`));
    }
  }

  /** A running split stops at its next unit boundary; a split not running just drops its state. */
  cancel(splitId: number): void {
    const slot = this.running.get(splitId);
    if (slot === undefined) {
      this.moduleState.delete(splitId);
      return;
    }
    Atomics.store(slot.control, CONTROL.CANCEL, splitId);
  }

  setTimer(atNanos: number, fn: () => void): () => void {
    let timer: NodeJS.Timeout;
    // Node's timers count from the event loop's cached millisecond clock and may fire a little
    // early by this clock: re-arm until backend time has really reached `atNanos`.
    const arm = (): void => {
      timer = setTimeout(
        () => {
          this.timers.delete(timer);
          if (this.now() < atNanos) arm();
          else fn();
        },
        Math.max(0, (atNanos - this.now()) / 1e6),
      );
      this.timers.add(timer);
    };
    arm();
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  setListener(events: BackendEvents): void {
    this.listener = events;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const slots = [...this.slots.values()];
    this.slots.clear();
    this.running.clear();
    this.moduleState.clear();
    await Promise.all(slots.map((slot) => slot.host.retire()));
  }

  private spawn(id: number): void {
    const control = createControl();
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const data: QuantumWorkerData = {
      role: 'quantum',
      workerId: id,
      origin: this.origin.toString(),
      control: control.buffer,
    };
    const slot: Slot = {
      id,
      control: control.words,
      running: null,
      sentAt: 0,
      ready,
      markReady,
      booted: false,
      host: new WorkerHost({
        entry: 'worker-entry.ts',
        workerData: { ...data },
        ...(this.options.resourceLimits === undefined
          ? {}
          : { resourceLimits: this.options.resourceLimits }),
        onMessage: (message) => {
          const m = message as FromQuantumWorker;
          if (m.type === 'ready') {
            slot.booted = true;
            this.backoff.started(id);
            markReady();
          } else this.finish(slot, m.report);
        },
        onLost: (reason) => this.lost(slot, reason),
      }),
    };
    this.slots.set(id, slot);
  }

  private finish(slot: Slot, report: QuantumReport): void {
    const dispatch = slot.running;
    if (dispatch === null || dispatch.splitId !== report.splitId) return;
    // A quantum can end `yielded` just as its cancel request lands: the split never runs again,
    // so its state must not be kept.
    const cancelled = Atomics.load(slot.control, CONTROL.CANCEL) === dispatch.splitId;
    this.release(slot, dispatch.splitId);
    if (report.outcome === 'yielded' && 'state' in report && !cancelled) {
      this.moduleState.set(dispatch.splitId, report.state);
    } else if (report.outcome !== 'blocked') {
      this.moduleState.delete(dispatch.splitId);
    }
    const { state: _state, ...measured } = report;
    this.emit({
      ...measured,
      workerId: slot.id,
      ranNanos: Math.max(0, report.endNanos - report.startNanos),
    });
  }

  private lost(slot: Slot, reason: string): void {
    if (this.closed || this.slots.get(slot.id) !== slot) return;
    this.slots.delete(slot.id);
    slot.markReady();
    const dispatch = slot.running;
    if (dispatch !== null) this.release(slot, dispatch.splitId);
    // Replace first, so the executor finds the lane idle again when it hears of the loss.
    if (slot.id < this.target) {
      if (slot.booted) this.spawn(slot.id);
      else this.respawnLater(slot.id);
    }
    if (dispatch === null) return;
    this.moduleState.delete(dispatch.splitId);
    this.failed(dispatch, slot.id, slot.sentAt, `worker lost: ${reason}`);
  }

  private failed(dispatch: Dispatch, workerId: number, startNanos: number, error: string): void {
    const end = this.now();
    this.emit({
      splitId: dispatch.splitId,
      workerId,
      startNanos,
      endNanos: end,
      ranNanos: end - startNanos,
      workNanos: 0,
      outcome: 'failed',
      error,
    });
  }

  private respawnLater(id: number): void {
    const delay = this.backoff.failed(id);
    this.setTimer(this.now() + delay * 1e6, () => {
      if (!this.closed && id < this.target && !this.slots.has(id)) this.spawn(id);
    });
  }

  private release(slot: Slot, splitId: number): void {
    slot.running = null;
    this.running.delete(splitId);
    if (slot.id >= this.target) this.retire(slot);
  }

  private retire(slot: Slot): void {
    this.slots.delete(slot.id);
    slot.markReady();
    void slot.host.retire();
  }

  private emit(end: QuantumEnd): void {
    this.listener?.quantumEnd(end);
  }

  private assertOpen(): void {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the threads backend is closed');
  }
}

function checkCount(count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) {
    throw invalidConfig('workers', `must be an integer from 1 to ${MAX_WORKERS}, got ${count}`);
  }
  return count;
}
