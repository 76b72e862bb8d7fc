/**
 * The layout both shared-memory rings between the main thread and a backend worker use (the
 * dispatch ring, main → worker: dispatch-ring.ts; the end ring, worker → main: end-ring.ts): a
 * header of Int32 words, then fixed-size slots, each some Float64 numbers and some Int32 words,
 * stored column by column (all slots' numbers, then all slots' ints) so each view is aligned.
 * One producer and one consumer per ring; sequence numbers are Int32 and wrap (only differences,
 * `head - tail | 0`, are compared).
 */
export const HEADER = {
  /** Records published by the producer (next sequence to write). */
  HEAD: 0,
  /** Records taken by the consumer (next sequence to read); the producer's room is what it read. */
  TAIL: 1,
  /**
   * The consumer's wake-up flag. Dispatch ring: 1 while the worker is running or will look at the
   * ring again, 0 when it sleeps. End ring: 1 while the main thread has been told of ends it has
   * not begun to read, 0 once it starts reading.
   */
  AWAKE: 2,
} as const;

/** 64 bytes: keeps the producer's and consumer's hot words off the slots' cache lines. */
const HEADER_WORDS = 16;

export class RingViews {
  readonly header: Int32Array;
  readonly numbers: Float64Array;
  readonly ints: Int32Array;
  readonly mask: number;

  constructor(
    readonly buffer: SharedArrayBuffer,
    numbersPerSlot: number,
    intsPerSlot: number,
  ) {
    const slots = (buffer.byteLength - HEADER_WORDS * 4) / (numbersPerSlot * 8 + intsPerSlot * 4);
    this.header = new Int32Array(buffer, 0, HEADER_WORDS);
    this.numbers = new Float64Array(buffer, HEADER_WORDS * 4, slots * numbersPerSlot);
    this.ints = new Int32Array(
      buffer,
      HEADER_WORDS * 4 + slots * numbersPerSlot * 8,
      slots * intsPerSlot,
    );
    this.mask = slots - 1;
  }

  /** How many records the producer can write, its next sequence being `head`. */
  room(head: number): number {
    return this.mask + 1 - ((head - Atomics.load(this.header, HEADER.TAIL)) | 0);
  }
}

/** A ring's memory: `slots` (a power of two) of `numbersPerSlot` Float64s and `intsPerSlot` Int32s. */
export function createSlots(
  slots: number,
  numbersPerSlot: number,
  intsPerSlot: number,
): SharedArrayBuffer {
  if (!Number.isInteger(Math.log2(slots))) throw new RangeError('slots: a power of two');
  return new SharedArrayBuffer(HEADER_WORDS * 4 + slots * (numbersPerSlot * 8 + intsPerSlot * 4));
}

/** Whether a value crosses inside its record (a number, or undefined) rather than as an extra. */
export function fitsRecord(value: unknown): boolean {
  return typeof value === 'number' || value === undefined;
}

/** No extras array held (the last one was read to its end). */
const NONE: readonly unknown[] = [];

/**
 * The reader's place in the extras arrays a ring's records point at: each record that needs one
 * takes the next value; a new array (from `take`, in the order they were posted) when the current
 * one is used up.
 */
export class ExtrasCursor {
  private extras: readonly unknown[] = NONE;
  private next = 0;

  constructor(private readonly take: () => unknown[]) {}

  value(): unknown {
    if (this.next >= this.extras.length) {
      this.extras = this.take();
      this.next = 0;
    }
    const value = this.extras[this.next++];
    // Read once: the array would otherwise keep every value in it (a flush's results) alive
    // until the next one arrives, however long that is.
    if (this.next === this.extras.length) this.extras = NONE;
    return value;
  }
}
