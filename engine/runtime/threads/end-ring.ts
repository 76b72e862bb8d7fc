/**
 * The end ring: the quantum ends a backend worker reports (worker-entry.ts), as fixed-size records
 * in shared memory instead of a cloned message — the dispatch ring (dispatch-ring.ts) run the
 * other way, worker → main thread. Cloning the ends of a run of tiny quanta was half of a
 * worker's time, and turning them back into objects a large part of the main thread's.
 *
 * An end that fits is one record: split id, times, work, CPU time, outcome, and what it carries
 * (a result or a yielded state) when that is a number or undefined. Any other value, and a report
 * in its object form (an error, a blocked time), goes as an *extra*: the extras of one publish
 * cross as one array on the worker's side port, posted before the records, which the main thread
 * takes with `receiveMessageOnPort` when it reaches the first record that needs one.
 *
 * Telling: the worker publishes records (`HEAD`), then swaps `AWAKE` on and posts `ENDS_READY`
 * (protocol.ts) on
 * its parent port only if it was off; the main thread clears `AWAKE` before it reads, then reads
 * to `HEAD`. Both store before they load, so a record published while the main thread reads is
 * either read then or told again. While the main thread is busy, a worker's further ends cost no
 * message at all: they are read with the ends it was told of. The main thread also reads a
 * worker's ring before anything else that worker posts (`ready`, a stray error), so it hears
 * everything in the order the worker sent it.
 *
 * The ring never fills: a worker has at most `MAX_QUEUED` + 1 dispatches whose ends the main
 * thread has not read (control.ts), far below `END_SLOTS`; should it, the worker posts its ends as
 * messages, which the main thread reads after the ring.
 */
import { receiveMessageOnPort, type MessagePort, type Transferable } from 'node:worker_threads';
import { outcomeAt, outcomeIndex } from '../../../shared/lib/outcomes.ts';
import {
  FLAT_RESULT,
  FLAT_STATE,
  FLAT_SUSPENDED,
  FLAT_NONE,
  type FlatEnd,
  type QuantumReport,
} from './protocol.ts';
import { createSlots, ExtrasCursor, fitsRecord, HEADER, RingViews } from './ring-slots.ts';

/** Per slot: split id, start, end, work (ns), CPU time (ns; −1: not measured), the value. */
const NUMBERS = 6;
/** Per slot: form (a `FlatEnd` kind, or `OBJECT_FORM`), outcome index, value tag, unused. */
const INTS = 4;
/** The record stands for a report in its object form, which is its extra. */
const OBJECT_FORM = -1;
/** Value tags. */
const VALUE_NUMBER = 0;
const VALUE_UNDEFINED = 1;
const VALUE_EXTRA = 2;

/** Slots per end ring: far more than a worker can owe the main thread (header). */
export const END_SLOTS = 1024;

/** What a worker publishes: an end in its flat form, or a report only the object form carries. */
export type EndItem = FlatEnd | QuantumReport;

export function createEndRingBuffer(slots = END_SLOTS): SharedArrayBuffer {
  return createSlots(slots, NUMBERS, INTS);
}

/** The worker's end of its end ring. */
export class EndRingWriter {
  private readonly views: RingViews;
  private head = 0;

  constructor(
    buffer: SharedArrayBuffer,
    /** The worker's side port: extras arrays go to the main thread on it. */
    private readonly side: MessagePort,
    /** Tells the main thread there are ends to read (posts `ENDS_READY`). */
    private readonly tell: () => void,
  ) {
    this.views = new RingViews(buffer, NUMBERS, INTS);
  }

  /** How many records fit now. */
  room(): number {
    return this.views.room(this.head);
  }

  /** The extras `items` need, in order (empty when every item fits a record alone). */
  extrasOf(items: readonly EndItem[]): unknown[] {
    const extras: unknown[] = [];
    for (const item of items) {
      if (!Array.isArray(item)) extras.push(item);
      else if (carriesValue(item[6]) && !fitsRecord(item[7])) extras.push(item[7]);
    }
    return extras;
  }

  /**
   * Publishes `items` (at most `room()`) with `extras` (`extrasOf(items)`) and tells the main
   * thread unless it was told already; `transfer`: what the extras move rather than copy (results
   * a task moved). Throws, having published nothing, when an extra cannot be cloned or moved.
   */
  send(items: readonly EndItem[], extras: unknown[], transfer?: readonly Transferable[]): void {
    if (extras.length > 0) {
      this.side.postMessage(extras, transfer === undefined ? undefined : [...transfer]);
    }
    this.write(items);
    if (Atomics.compareExchange(this.views.header, HEADER.AWAKE, 0, 1) === 0) this.tell();
  }

  private write(items: readonly EndItem[]): void {
    const { header, numbers, ints, mask } = this.views;
    let head = this.head;
    for (const item of items) {
      const slot = head & mask;
      const n = slot * NUMBERS;
      const i = slot * INTS;
      if (Array.isArray(item)) {
        const flat = item as FlatEnd;
        numbers[n] = flat[0];
        numbers[n + 1] = flat[1];
        numbers[n + 2] = flat[2];
        numbers[n + 3] = flat[3];
        numbers[n + 4] = flat[5];
        ints[i] = flat[6];
        ints[i + 1] = flat[4];
        const value = flat[7];
        if (!carriesValue(flat[6])) ints[i + 2] = VALUE_UNDEFINED;
        else if (typeof value === 'number') {
          numbers[n + 5] = value;
          ints[i + 2] = VALUE_NUMBER;
        } else ints[i + 2] = value === undefined ? VALUE_UNDEFINED : VALUE_EXTRA;
      } else {
        const report = item as QuantumReport;
        numbers[n] = report.splitId;
        ints[i] = OBJECT_FORM;
        ints[i + 1] = outcomeIndex(report.outcome);
      }
      head = (head + 1) | 0;
    }
    this.head = head;
    Atomics.store(header, HEADER.HEAD, head);
  }
}

/**
 * `x` as a small integer when it is one. A number read from a Float64Array is a boxed double to
 * the engine even when it is whole; stored in a record's field that held only small integers (a
 * split's done work, from a quantum's), it turns that field into a boxed one in every record made
 * after, 16 bytes each (a cloned message gave small integers back as such).
 */
function small(x: number): number {
  const i = x | 0;
  return Object.is(i, x) ? i : x; // not for −0, which stays itself
}

function carriesValue(kind: number): boolean {
  return kind === FLAT_RESULT || kind === FLAT_STATE;
}

/** The main thread's end of a worker's end ring. */
export class EndRingReader {
  private readonly views: RingViews;
  private tail = 0;
  private readonly extras: ExtrasCursor;
  private reading = false;

  constructor(
    buffer: SharedArrayBuffer,
    /** The main thread's end of the worker's side port; nothing else reads what arrives on it. */
    side: MessagePort,
  ) {
    this.views = new RingViews(buffer, NUMBERS, INTS);
    this.extras = new ExtrasCursor(() => {
      // Posted before the records that need it, so it is in the port by now.
      const got = receiveMessageOnPort(side);
      if (got === undefined) throw new Error('end ring: a record names an extra never sent');
      return got.message as unknown[];
    });
  }

  /**
   * Reads every end published so far, in order, handing each to `fn`. Ends published while it
   * reads are read too; a call from inside `fn` returns at once (the outer one reads on). While
   * `hold()` is true (the backend has ends of its own to tell first, after the caller returns)
   * it stops, and reads on in a microtask, after those.
   */
  drain(fn: (report: QuantumReport) => void, hold?: () => boolean): void {
    if (this.reading) return;
    this.reading = true;
    try {
      const { header } = this.views;
      Atomics.store(header, HEADER.AWAKE, 0);
      while (this.tail !== Atomics.load(header, HEADER.HEAD)) {
        if (hold?.() === true) {
          queueMicrotask(() => this.drain(fn, hold));
          return;
        }
        const report = this.read(this.tail);
        this.tail = (this.tail + 1) | 0;
        Atomics.store(header, HEADER.TAIL, this.tail);
        fn(report);
      }
    } finally {
      this.reading = false;
    }
  }

  private read(seq: number): QuantumReport {
    const { numbers, ints, mask } = this.views;
    const slot = seq & mask;
    const n = slot * NUMBERS;
    const i = slot * INTS;
    const form = ints[i]!;
    if (form === OBJECT_FORM) return this.extras.value() as QuantumReport;
    const report: { -readonly [K in keyof QuantumReport]: QuantumReport[K] } = {
      splitId: small(numbers[n]!),
      startNanos: numbers[n + 1]!,
      endNanos: numbers[n + 2]!,
      workNanos: small(numbers[n + 3]!),
      outcome: outcomeAt(ints[i + 1]!),
    };
    const cpuNanos = numbers[n + 4]!;
    if (cpuNanos >= 0) report.cpuNanos = small(cpuNanos);
    if (form === FLAT_SUSPENDED) report.suspended = true;
    else if (form !== FLAT_NONE) {
      const tag = ints[i + 2];
      const value =
        tag === VALUE_NUMBER
          ? small(numbers[n + 5]!)
          : tag === VALUE_UNDEFINED
            ? undefined
            : this.extras.value();
      if (form === FLAT_RESULT) report.result = value;
      else report.state = value;
    }
    return report;
  }
}
