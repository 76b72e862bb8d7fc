/**
 * The dispatch ring: what the main thread sends a backend worker (outbox.ts), as fixed-size
 * records in shared memory instead of a cloned message. A single-producer (main), single-consumer
 * (worker) ring of slots in a SharedArrayBuffer, read in order.
 *
 * A user module's quantum is one record: split id, quantum, module id, ticket (control.ts), and
 * its input when it is a number or undefined (the tiny-task case). Anything else — a module call
 * whose input is another value, a built-in kernel's `RunMessage`, a module ref, a `drop` — takes a
 * record that points at an *extra*: the values a flush needs beside its records cross as one
 * array on a side `MessagePort`, posted before the records are published, which the worker takes
 * with `receiveMessageOnPort` when it reaches the first record that needs one. So the order of
 * everything the main thread sends a worker is the order of the records.
 *
 * Waking: a worker going idle clears `AWAKE`, then looks at `HEAD` once more; the main thread
 * stores `HEAD`, then swaps `AWAKE` back on and posts `WAKE` on the side port only if it was off.
 * Both sides store before they load (sequentially consistent atomics), so a record is never left
 * unread while the worker sleeps; a busy worker (running quanta, or awaiting an async one) reads
 * new records when it comes to them, with no message at all. A flush with extras posted to a
 * sleeping worker needs no `WAKE`: the extras wake it. A worker reads its ring once when it has
 * started, then sleeps.
 *
 * Sequence numbers are Int32 and wrap; only differences (`head - tail | 0`) are compared.
 */
import { receiveMessageOnPort, type MessagePort, type Transferable } from 'node:worker_threads';
import type { ModuleCall } from './protocol.ts';
import { createSlots, ExtrasCursor, fitsRecord, HEADER, RingViews } from './ring-slots.ts';

/** Per slot: split id, quantum ns, input, ticket value. */
const NUMBERS = 4;
/** Per slot: kind, module id, ticket word (−1: none), input tag. */
const INTS = 4;

/** Record kinds. */
const CALL = 0;
const EXTRA_MESSAGE = 1;
/** Input tags of a `CALL`. */
const INPUT_NUMBER = 0;
const INPUT_UNDEFINED = 1;
const INPUT_EXTRA = 2;

/** Slots per worker ring: far more than a worker holds (`MAX_QUEUED` dispatches + a few refs). */
export const RING_SLOTS = 1024;

/** The wake-up message (main → worker, on the side port). */
export const WAKE = 0;

export function createRingBuffer(slots = RING_SLOTS): SharedArrayBuffer {
  return createSlots(slots, NUMBERS, INTS);
}

/** What the outbox writes: a module call (`ModuleCall`) or any other message, as an extra. */
export type RingItem = ModuleCall | object;

/** The main thread's end of a worker's ring. */
export class RingWriter {
  private readonly views: RingViews;
  private head = 0;

  constructor(
    buffer: SharedArrayBuffer,
    /** The worker's side port: extras arrays and `WAKE`s, nothing else. */
    private readonly side: MessagePort,
  ) {
    this.views = new RingViews(buffer, NUMBERS, INTS);
  }

  /** How many records fit now. */
  room(): number {
    return this.views.room(this.head);
  }

  /** The extras `items` need, in order (empty when every item fits a record alone). */
  extrasOf(items: readonly RingItem[]): unknown[] {
    const extras: unknown[] = [];
    for (const item of items) {
      if (!Array.isArray(item)) extras.push(item);
      else if (!fitsRecord(item[3])) extras.push(item[3]);
    }
    return extras;
  }

  /**
   * Sends `items` (at most `room()`) with `extras` (`extrasOf(items)`), waking the worker if it
   * sleeps; `transfer`: what the extras move rather than copy. Throws, having sent nothing, when
   * an extra cannot be cloned (or a transfer moved).
   */
  send(items: readonly RingItem[], extras: unknown[], transfer?: readonly Transferable[]): void {
    const { header } = this.views;
    if (extras.length > 0) {
      // Posted to a sleeping worker, the extras are its wake-up: no second message.
      const woke = Atomics.compareExchange(header, HEADER.AWAKE, 0, 1) === 0;
      try {
        this.side.postMessage(extras, transfer === undefined ? undefined : [...transfer]);
      } catch (error) {
        if (woke) Atomics.store(header, HEADER.AWAKE, 0);
        throw error;
      }
    }
    for (const item of items) {
      if (!Array.isArray(item)) {
        this.views.ints[(this.head & this.views.mask) * INTS] = EXTRA_MESSAGE;
        this.head = (this.head + 1) | 0;
        continue;
      }
      const call = item as unknown as ModuleCall;
      this.writeCall(call[0], call[1], call[2], call[3], call[4], call[5]);
    }
    this.publish();
  }

  /**
   * Writes one module call (at most `room()`), published with the next `send` or `publish`: a
   * call with an input that fits its record (`fitsRecord`) needs no array and no extras.
   */
  writeCall(
    splitId: number,
    quantumNanos: number,
    moduleId: number,
    input: unknown,
    ticketWord: number,
    ticketValue: number,
  ): void {
    const { numbers, ints, mask } = this.views;
    const slot = this.head & mask;
    const n = slot * NUMBERS;
    const i = slot * INTS;
    numbers[n] = splitId;
    numbers[n + 1] = quantumNanos;
    numbers[n + 3] = ticketValue;
    ints[i] = CALL;
    ints[i + 1] = moduleId;
    ints[i + 2] = ticketWord;
    if (typeof input === 'number') {
      numbers[n + 2] = input;
      ints[i + 3] = INPUT_NUMBER;
    } else ints[i + 3] = input === undefined ? INPUT_UNDEFINED : INPUT_EXTRA;
    this.head = (this.head + 1) | 0;
  }

  /** Publishes what was written, waking the worker if it sleeps. */
  publish(): void {
    const { header } = this.views;
    Atomics.store(header, HEADER.HEAD, this.head);
    // Asleep (or it woke on the extras before the records were there, and slept again): wake it.
    if (Atomics.compareExchange(header, HEADER.AWAKE, 0, 1) === 0) this.side.postMessage(WAKE);
  }
}

/** The worker's end of its ring. */
export class RingReader {
  private readonly views: RingViews;
  private tail = 0;
  private readonly extras = new ExtrasCursor(() => this.nextExtras());
  /** Extras arrays the side port delivered as events, before the records that need them. */
  private readonly arrived: unknown[][] = [];

  constructor(
    buffer: SharedArrayBuffer,
    private readonly side: MessagePort,
    /** Called for every message on the side port: the worker reads its ring if it is not already. */
    onMessage: () => void,
  ) {
    this.views = new RingViews(buffer, NUMBERS, INTS);
    side.on('message', (message: unknown[] | typeof WAKE) => {
      if (message !== WAKE) this.arrived.push(message);
      onMessage();
    });
  }

  /** The next record as the message it stands for, or undefined when the ring is empty. */
  next(): ModuleCall | object | undefined {
    const { header, numbers, ints, mask } = this.views;
    const tail = this.tail;
    if (tail === Atomics.load(header, HEADER.HEAD)) return undefined;
    const slot = tail & mask;
    const n = slot * NUMBERS;
    const i = slot * INTS;
    let out: ModuleCall | object;
    if (ints[i] === CALL) {
      const tag = ints[i + 3];
      const input =
        tag === INPUT_NUMBER
          ? numbers[n + 2]
          : tag === INPUT_UNDEFINED
            ? undefined
            : this.extras.value();
      out = [numbers[n]!, numbers[n + 1]!, ints[i + 1]!, input, ints[i + 2]!, numbers[n + 3]!];
    } else out = this.extras.value() as object;
    this.tail = (tail + 1) | 0;
    Atomics.store(header, HEADER.TAIL, this.tail);
    return out;
  }

  /**
   * The worker is about to sleep: true when it may (nothing unread), false when a record came
   * in meanwhile (it stays awake and reads on).
   */
  sleep(): boolean {
    const { header } = this.views;
    Atomics.store(header, HEADER.AWAKE, 0);
    if (this.tail === Atomics.load(header, HEADER.HEAD)) return true;
    Atomics.store(header, HEADER.AWAKE, 1);
    return false;
  }

  /**
   * The next extras array: one delivered already, else one still in the port (posted before its
   * records were published, so it is there), taken now. In the order they were posted either way.
   */
  private nextExtras(): unknown[] {
    const early = this.arrived.shift();
    if (early !== undefined) return early;
    for (;;) {
      const got = receiveMessageOnPort(this.side);
      if (got === undefined) throw new Error('dispatch ring: a record names an extra never sent');
      if (got.message !== WAKE) return got.message as unknown[];
    }
  }
}
