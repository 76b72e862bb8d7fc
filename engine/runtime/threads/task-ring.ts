/**
 * The shared-memory ring between `TaskPool` and one of its workers: a single-producer (main),
 * single-consumer (worker) ring of task slots in a SharedArrayBuffer. The worker writes each
 * result into the slot its task came in, so results come back in slot order and need no ids.
 *
 * Sequence numbers are Int32 and wrap; only differences (`head - tail | 0`) are compared.
 * Numbers travel in the slot itself; other arguments go over a MessagePort the worker drains
 * synchronously (`receiveMessageOnPort`), other results with the worker's progress message.
 */
export const HEADER = {
  /** Tasks published by main (next sequence to write). Worker waits on it when drained. */
  HEAD: 0,
  /** Tasks completed by the worker. */
  TAIL: 1,
  /** Main asks for a progress message when TAIL reaches this sequence. */
  WANT: 2,
} as const;
const HEADER_WORDS = 16; // 64 bytes: keeps the hot words off the slots' cache lines

export const ARG = { NUMBER: 0, MESSAGE: 1 } as const;
export const RESULT = { NUMBER: 0, VALUE: 1, ERROR: 2 } as const;

export class TaskRing {
  readonly header: Int32Array;
  /** Per slot: [function id, tag] — the tag is an `ARG` until the task ran, then a `RESULT`. */
  readonly meta: Int32Array;
  /** Per slot: the argument, then the result, when a number. */
  readonly numbers: Float64Array;
  readonly mask: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    const capacity = (buffer.byteLength - HEADER_WORDS * 4) / 16;
    this.header = new Int32Array(buffer, 0, HEADER_WORDS);
    this.numbers = new Float64Array(buffer, HEADER_WORDS * 4, capacity);
    this.meta = new Int32Array(buffer, HEADER_WORDS * 4 + capacity * 8, capacity * 2);
    this.mask = capacity - 1;
  }

  get capacity(): number {
    return this.mask + 1;
  }

  static create(capacity: number): TaskRing {
    if (!Number.isInteger(Math.log2(capacity))) throw new RangeError('capacity: power of two');
    return new TaskRing(new SharedArrayBuffer(HEADER_WORDS * 4 + capacity * 16));
  }
}
