/**
 * One worker of the threads backend as the main thread sees it: the dispatch running there and
 * those queued behind it (docs/design.md §4: "dispatch must be cheap"), up to `MAX_QUEUED`. A
 * queued dispatch is posted while the running quantum still runs, so the worker starts it the
 * moment the quanta before it end instead of idling for a round trip through the main thread;
 * until the worker takes its ticket (control.ts) the main thread may take it back.
 */
import { MessageChannel, type ResourceLimits } from 'node:worker_threads';
import type { Dispatch } from '../backend.ts';
import {
  clearCut,
  createControl,
  cutQuantum,
  isTicketFree,
  isTicketOpen,
  offerTicket,
  takeTicket,
  TICKET_WORDS,
} from './control.ts';
import { createRingBuffer, RingWriter } from './dispatch-ring.ts';
import { createEndRingBuffer, EndRingReader } from './end-ring.ts';
import { unflattenAt, unflattenReport } from './flat-messages.ts';
import {
  ENDS_READY,
  FLAT_END_LENGTH,
  type FlatEnd,
  type FromQuantumWorker,
  type QuantumReport,
  type QuantumWorkerData,
  type StrayError,
} from './protocol.ts';
import { WorkerHost } from './worker-host.ts';

/** Tickets stay in 1..MAX_TICKET: positive Int32 values, 0 meaning "free". */
const MAX_TICKET = 0x7ffffffe;

export interface Ticket {
  readonly word: number;
  readonly value: number;
}

/** What a lost worker held (`PoolWorker.abandon`). */
export interface Abandoned {
  readonly running: Dispatch | null;
  /** The first queued dispatch (the only one on a worker fed one at a time, as the cluster's). */
  readonly queued: Dispatch | null;
  /** Whether the worker had started `queued` (then `running`'s end never came). */
  readonly queuedStarted: boolean;
  /** Every queued dispatch, in order; the first `started` of them the worker had started. */
  readonly all: readonly Dispatch[];
  readonly started: number;
}

export class PoolWorker {
  running: Dispatch | null = null;
  /** Backend time the running dispatch was handed over (or started, for a promoted one). */
  sentAt = 0;
  /** The executor asked to cancel the running dispatch (its yielded state must not be kept). */
  cancelAsked = false;
  /** Backend time of that cancel, for the hard limit (hard-kill.ts); null when none was asked. */
  cancelAt: number | null = null;
  booted = false;
  /** Module ids whose ref this worker has been sent (flat-messages.ts). */
  readonly refsSent = new Set<number>();
  /** Where the outbox writes this worker's dispatches (dispatch-ring.ts); null: by message. */
  ring: RingWriter | null = null;
  /** Reads the ends the worker published (end-ring.ts) into `end`; a no-op without a ring. */
  drainEnds: () => void = () => {};
  /** Dispatches queued behind the running one, in the order the worker runs them; their tickets. */
  private readonly waits: Dispatch[] = [];
  private readonly tickets: Ticket[] = [];
  /** Queued splits whose cancel was asked after the worker had started them. */
  private readonly cancelledQueued = new Set<number>();
  private issued = 0;
  /** Where `freeWord` looks first. */
  private nextWord = 0;
  /** A cut asked for queued dispatches before the worker started them (ns; Infinity: none)… */
  private queuedCut = Infinity;
  /** …for those with a ticket from this value on. */
  private queuedCutFrom = 0;

  constructor(
    readonly id: number,
    readonly control: Int32Array,
    readonly host: WorkerHost,
    readonly ready: Promise<void>,
    /** Also called when the worker dies before it is ready, so `ready()` never hangs. */
    readonly markReady: () => void,
  ) {}

  /** The first dispatch queued behind the running one, or null. */
  get queued(): Dispatch | null {
    return this.waits[0] ?? null;
  }

  /** Queued dispatch `i` (0: the next to run). */
  queuedAt(i: number): Dispatch | undefined {
    return this.waits[i];
  }

  /** How many dispatches are queued behind the running one. */
  get queuedCount(): number {
    return this.waits.length;
  }

  /** A direct start on an idle worker. */
  run(dispatch: Dispatch, at: number): void {
    this.running = dispatch;
    this.sentAt = at;
    this.cancelAsked = false;
    this.cancelAt = null;
  }

  /**
   * Cuts the quanta dispatched here to at most `nanos` from their start: the one the worker runs
   * now at once (the last it started), queued ones not started yet once they are (a cut must
   * not name a split while the quantum before it still runs, see `cutQuantum`). `only`: that
   * dispatch alone (the object given to `run` or `queue`): a cluster node's thread runs several
   * coordinators' quanta, whose split ids may be the same number, and one coordinator's cut
   * must not shorten another's.
   */
  cut(nanos: number, only?: Dispatch): void {
    const started = this.startedCount();
    const now = started > 0 ? this.waits[started - 1]! : this.running;
    if (now !== null && (only === undefined || now === only)) {
      cutQuantum(this.control, now.splitId, nanos);
    }
    const next = this.waits[started];
    if (next !== undefined && (only === undefined || next === only)) {
      if (this.queuedCut === Infinity) this.queuedCutFrom = this.tickets[started]!.value;
      this.queuedCut = Math.min(this.queuedCut, nanos);
    }
  }

  /**
   * Queues `dispatch` behind the ones already here and returns the ticket the worker must take to
   * run it, in the next free word (`freeWord`).
   */
  queue(dispatch: Dispatch): Ticket {
    this.issued = (this.issued % MAX_TICKET) + 1;
    const word = this.freeWord();
    const ticket = { word, value: this.issued };
    this.waits.push(dispatch);
    this.tickets.push(ticket);
    offerTicket(this.control, word, this.issued);
    return ticket;
  }

  /**
   * Takes back queued dispatch `splitId` (default: the first queued) if the worker has not started
   * it; true when it never will.
   */
  revoke(splitId?: number): boolean {
    const i = splitId === undefined ? 0 : this.indexOf(splitId);
    const ticket = this.tickets[i];
    if (i < 0 || ticket === undefined) return false;
    if (!takeTicket(this.control, ticket.word, ticket.value)) return false;
    this.waits.splice(i, 1);
    this.tickets.splice(i, 1);
    if (this.waits.length === 0) this.queuedCut = Infinity;
    return true;
  }

  /** Where `splitId` is among the queued dispatches, or −1. */
  indexOf(splitId: number): number {
    const waits = this.waits;
    for (let i = 0; i < waits.length; i++) if (waits[i]!.splitId === splitId) return i;
    return -1;
  }

  /** True once the worker has started the first queued dispatch (so the running one has ended). */
  queuedStarted(): boolean {
    return this.startedAt(0);
  }

  /** True once the worker has started queued dispatch `i` (so every one before it has ended). */
  startedAt(i: number): boolean {
    const t = this.tickets[i];
    return t !== undefined && !isTicketOpen(this.control, t.word, t.value);
  }

  /** A queued split's cancel came after the worker started it: it stops like a running one. */
  cancelStarted(splitId: number): void {
    this.cancelledQueued.add(splitId);
  }

  /**
   * The thread died: empties the worker and says what was on it — the running dispatch, the queued
   * ones and how many the worker had started (the worker runs them in order).
   */
  abandon(): Abandoned {
    const started = this.startedCount();
    const all = this.waits.slice();
    const left = { running: this.running, queued: all[0] ?? null, queuedStarted: started > 0 };
    this.running = null;
    this.waits.length = 0;
    this.tickets.length = 0;
    this.cancelledQueued.clear();
    return { ...left, all, started };
  }

  /** The running dispatch ended: the first queued one (if any) is now running, started at `at`. */
  advance(at: number): void {
    if (this.running !== null) clearCut(this.control, this.running.splitId);
    this.sentAt = at;
    const next = this.waits.shift() ?? null;
    const ticket = this.tickets.shift();
    this.running = next;
    this.cancelAsked = next !== null && this.cancelledQueued.delete(next.splitId);
    this.cancelAt = this.cancelAsked ? at : null;
    if (next !== null && this.queuedCut !== Infinity && ticket!.value >= this.queuedCutFrom) {
      cutQuantum(this.control, next.splitId, this.queuedCut);
    }
    if (this.waits.length === 0) this.queuedCut = Infinity;
  }

  /**
   * The next ticket word, in turn, whose last ticket has been decided (the worker took it, or the
   * main thread took it back): it holds `NO_TICKET`. Not simply the next in turn: a dispatch taken
   * back from behind an undecided one lets the queue take another, so words used strictly in turn
   * came round to one whose ticket was still open — the worker then skipped that dispatch as taken
   * back while the main thread, which read the overwritten word as taken, waited for its end for
   * good (both workers idle, every run queued). At most `MAX_QUEUED` + 1 tickets are open (the
   * queued ones and the running one's, control.ts), so one of the `TICKET_WORDS` is free.
   */
  private freeWord(): number {
    for (let i = 0; i < TICKET_WORDS; i++) {
      const word = this.nextWord;
      this.nextWord = (word + 1) % TICKET_WORDS;
      if (isTicketFree(this.control, word)) return word;
    }
    throw new Error(`worker ${this.id}: every ticket word is open`);
  }

  /** How many queued dispatches the worker has started (a prefix: it runs them in order). */
  private startedCount(): number {
    let n = 0;
    while (n < this.waits.length && this.startedAt(n)) n++;
    return n;
  }
}

export interface PoolWorkerEvents {
  /** The worker has calibrated its kernels (before `worker.ready` resolves). */
  ready(): void;
  end(report: QuantumReport): void;
  /** An error of a user module that no running split owns (protocol.ts); the worker goes on. */
  stray(error: StrayError): void;
  lost(reason: string): void;
  /** True while the ends on the end ring must wait (end-ring.ts `drain`); absent: never. */
  holdEnds?(): boolean;
}

/**
 * Starts worker `id` (clock `origin`, see clock.ts) on a fresh thread; with `ring`, it takes its
 * dispatches through a dispatch ring (dispatch-ring.ts) and publishes its ends on an end ring
 * (end-ring.ts), else both go as messages.
 */
export function spawnWorker(
  id: number,
  origin: bigint,
  resourceLimits: ResourceLimits | undefined,
  suspends: boolean,
  events: PoolWorkerEvents,
  ring = false,
): PoolWorker {
  const control = createControl();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const channel = ring ? new MessageChannel() : null;
  const endBuffer = ring ? createEndRingBuffer() : null;
  const data: QuantumWorkerData = {
    role: 'quantum',
    workerId: id,
    origin: origin.toString(),
    control: control.buffer,
    ...(suspends ? { suspends } : {}),
    ...(channel === null
      ? {}
      : { ring: createRingBuffer(), extras: channel.port2, endRing: endBuffer! }),
  };
  const ends = channel === null ? null : new EndRingReader(endBuffer!, channel.port1);
  const drainEnds = ends === null ? () => {} : () => ends.drain(events.end, events.holdEnds);
  const host = new WorkerHost({
    entry: 'worker-entry.ts',
    workerData: { ...data },
    ...(channel === null ? {} : { transferList: [channel.port2] }),
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
    onMessage: (message) => {
      // Ends the worker published before it posted this come first (end-ring.ts).
      drainEnds();
      if (message === ENDS_READY) return;
      if (Array.isArray(message)) return events.end(unflattenReport(message as unknown as FlatEnd));
      const m = message as Exclude<FromQuantumWorker, FlatEnd | typeof ENDS_READY>;
      if (m.type === 'ends') {
        // In order. A worker lost on the way (its thread killed) was emptied: the rest find nothing.
        const flat = m.ends;
        for (let at = 0; at < flat.length; at += FLAT_END_LENGTH) events.end(unflattenAt(flat, at));
      } else if (m.type === 'ready') {
        worker.booted = true;
        events.ready();
        markReady();
      } else if (m.type === 'stray') events.stray(m.stray);
      else events.end(m.report);
    },
    onLost: (reason) => {
      // What it published before it died ended as it said.
      drainEnds();
      events.lost(reason);
    },
  });
  const worker = new PoolWorker(id, control.words, host, ready, markReady);
  if (channel !== null) {
    worker.ring = new RingWriter(data.ring!, channel.port1);
    worker.drainEnds = drainEnds;
  }
  return worker;
}
