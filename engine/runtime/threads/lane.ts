/**
 * One worker of the threads backend as the main thread sees it: the dispatch running there and at
 * most one queued behind it (docs/design.md §4: "dispatch must be cheap"). A queued dispatch is posted
 * while the running quantum still runs, so the worker starts it the moment that quantum ends
 * instead of idling for a round trip through the main thread; until the worker takes its ticket
 * (control.ts) the main thread may take it back.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { Dispatch } from '../backend.ts';
import {
  clearCut,
  createControl,
  cutQuantum,
  isTicketOpen,
  offerTicket,
  takeTicket,
} from './control.ts';
import { unflattenReport } from './flat-messages.ts';
import type {
  FlatEnd,
  FromQuantumWorker,
  QuantumReport,
  QuantumWorkerData,
  StrayError,
} from './protocol.ts';
import { WorkerHost } from './worker-host.ts';

/** Tickets stay in 1..MAX_TICKET: positive Int32 values, 0 meaning "free". */
const MAX_TICKET = 0x7ffffffe;

export interface Ticket {
  readonly word: number;
  readonly value: number;
}

export class Lane {
  running: Dispatch | null = null;
  queued: Dispatch | null = null;
  /** Backend time the running dispatch was handed over (or started, for a promoted one). */
  sentAt = 0;
  /** The executor asked to cancel the running dispatch (its yielded state must not be kept). */
  cancelAsked = false;
  /** Backend time of that cancel, for the hard limit (hard-kill.ts); null when none was asked. */
  cancelAt: number | null = null;
  booted = false;
  /** Module ids whose ref this lane's worker has been sent (flat-messages.ts). */
  readonly refsSent = new Set<number>();
  /** Ticket word of the running dispatch (−1: it was started directly, without a ticket). */
  private runningWord = -1;
  private queuedTicket: Ticket = { word: 0, value: 0 };
  private issued = 0;
  /** A cut asked for the queued dispatch before the worker started it (ns; Infinity: none). */
  private queuedCut = Infinity;

  constructor(
    readonly id: number,
    readonly control: Int32Array,
    readonly host: WorkerHost,
    readonly ready: Promise<void>,
    /** Also called when the worker dies before it is ready, so `ready()` never hangs. */
    readonly markReady: () => void,
  ) {}

  /** A direct start on an idle lane. */
  run(dispatch: Dispatch, at: number): void {
    this.running = dispatch;
    this.runningWord = -1;
    this.sentAt = at;
    this.cancelAsked = false;
    this.cancelAt = null;
  }

  /**
   * Cuts the quanta dispatched here to at most `nanos` from their start: the one the worker runs
   * now at once, a queued one not started yet once it is (its cut must not name it while the
   * quantum before it still runs, see `cutQuantum`).
   */
  cut(nanos: number): void {
    if (this.queued !== null && this.queuedStarted()) {
      cutQuantum(this.control, this.queued.splitId, nanos);
      return;
    }
    if (this.running !== null) cutQuantum(this.control, this.running.splitId, nanos);
    if (this.queued !== null) this.queuedCut = Math.min(this.queuedCut, nanos);
  }

  /**
   * Queues `dispatch` behind the running one and returns the ticket the worker must take to run
   * it: in the word the running dispatch does not use, which is free (every earlier ticket in it
   * was taken by the worker or revoked before this lane could queue again).
   */
  queue(dispatch: Dispatch): Ticket {
    this.issued = (this.issued % MAX_TICKET) + 1;
    const word = this.runningWord === 0 ? 1 : 0;
    this.queuedTicket = { word, value: this.issued };
    this.queued = dispatch;
    offerTicket(this.control, word, this.issued);
    return this.queuedTicket;
  }

  /** Takes the queued dispatch back if the worker has not started it; true when it never will. */
  revoke(): boolean {
    if (this.queued === null) return false;
    if (!takeTicket(this.control, this.queuedTicket.word, this.queuedTicket.value)) return false;
    this.queued = null;
    this.queuedCut = Infinity;
    return true;
  }

  /** True once the worker has started the queued dispatch (so the running one has ended). */
  queuedStarted(): boolean {
    return (
      this.queued !== null &&
      !isTicketOpen(this.control, this.queuedTicket.word, this.queuedTicket.value)
    );
  }

  /**
   * The worker died: empties the lane and says what was on it — the running dispatch, the queued
   * one and whether the worker had started it (then the running one's end never came).
   */
  abandon(): { running: Dispatch | null; queued: Dispatch | null; queuedStarted: boolean } {
    const left = {
      running: this.running,
      queued: this.queued,
      queuedStarted: this.queuedStarted(),
    };
    this.running = null;
    this.queued = null;
    return left;
  }

  /** The running dispatch ended: the queued one (if any) is now running, started at `at`. */
  advance(at: number): void {
    if (this.running !== null) clearCut(this.control, this.running.splitId);
    this.cancelAsked = false;
    this.cancelAt = null;
    this.sentAt = at;
    this.running = this.queued;
    this.runningWord = this.queued === null ? -1 : this.queuedTicket.word;
    this.queued = null;
    if (this.running !== null && this.queuedCut !== Infinity) {
      cutQuantum(this.control, this.running.splitId, this.queuedCut);
    }
    this.queuedCut = Infinity;
  }
}

export interface LaneEvents {
  /** The worker has calibrated its kernels (before `lane.ready` resolves). */
  ready(): void;
  end(report: QuantumReport): void;
  /** An error of a user module that no running split owns (protocol.ts); the worker goes on. */
  stray(error: StrayError): void;
  lost(reason: string): void;
}

/** Starts worker `id` (clock `origin`, see clock.ts) on a fresh lane. */
export function spawnLane(
  id: number,
  origin: bigint,
  resourceLimits: ResourceLimits | undefined,
  events: LaneEvents,
): Lane {
  const control = createControl();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const data: QuantumWorkerData = {
    role: 'quantum',
    workerId: id,
    origin: origin.toString(),
    control: control.buffer,
  };
  const host = new WorkerHost({
    entry: 'worker-entry.ts',
    workerData: { ...data },
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
    onMessage: (message) => {
      if (Array.isArray(message)) return events.end(unflattenReport(message as unknown as FlatEnd));
      const m = message as Exclude<FromQuantumWorker, FlatEnd>;
      if (m.type === 'ready') {
        lane.booted = true;
        events.ready();
        markReady();
      } else if (m.type === 'stray') events.stray(m.stray);
      else events.end(m.report);
    },
    onLost: (reason) => events.lost(reason),
  });
  const lane = new Lane(id, control.words, host, ready, markReady);
  return lane;
}
