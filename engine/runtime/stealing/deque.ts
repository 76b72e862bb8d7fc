/**
 * A Chase–Lev work-stealing deque over shared Int32Arrays: the owner pushes and pops at the
 * bottom (LIFO, cache-warm), thieves steal from the top (FIFO, the oldest and usually largest
 * piece of work). JavaScript Atomics are sequentially consistent, which gives the fences the
 * algorithm needs. Indices only grow during a run and the buffer holds at least as many slots as
 * the graph has nodes (each node is pushed at most once per run), so a slot is never reused
 * while a thief may still read it.
 *
 * The ring's slots are read and written with plain accesses: a slot is written before the
 * `Atomics.store` of `bottom` that publishes it and read after an `Atomics` read of `bottom` or
 * `top` that saw it published, so every access is ordered by those (and a slot is never written
 * twice in a run). An `Atomics` access per slot cost several ns a node.
 *
 * Layout: `meta[base + TOP]` and `meta[base + BOTTOM]` sit on separate 64-byte lines so the
 * owner's bottom writes do not bounce the thieves' top line; the ring is `buf[ringStart ..]`.
 */
export const DEQUE_META_INTS = 32;
const TOP = 0;
const BOTTOM = 16;

export const EMPTY = -1;
/** A thief lost the race for the last element; trying again may succeed. */
export const ABORT = -2;

export class WorkDeque {
  private readonly top: number;
  private readonly bottom: number;
  private readonly mask: number;

  constructor(
    private readonly meta: Int32Array,
    private readonly buf: Int32Array,
    owner: number,
    private readonly ringStart: number,
    capacity: number,
  ) {
    this.top = owner * DEQUE_META_INTS + TOP;
    this.bottom = owner * DEQUE_META_INTS + BOTTOM;
    this.mask = capacity - 1;
  }

  /** Owner only (`bottom` is written by the owner alone, so it reads it plainly). */
  push(node: number): void {
    const b = this.meta[this.bottom]!;
    // A plain store: the Atomics.store of `bottom` after it publishes it (see the class comment).
    this.buf[this.ringStart + (b & this.mask)] = node;
    Atomics.store(this.meta, this.bottom, b + 1);
  }

  /** Owner only: pushes `nodes[from .. to)` with one publication of `bottom`. */
  pushRange(nodes: Int32Array, from: number, to: number): void {
    const b = this.meta[this.bottom]!;
    const at = b & this.mask;
    const count = to - from;
    // One copy when the nodes fit before the ring's end.
    if (at + count <= this.mask + 1) this.buf.set(nodes.subarray(from, to), this.ringStart + at);
    else
      for (let i = 0; i < count; i++)
        this.buf[this.ringStart + ((b + i) & this.mask)] = nodes[from + i]!;
    Atomics.store(this.meta, this.bottom, b + count);
  }

  /** Owner only: the most recently pushed node, or EMPTY. */
  pop(): number {
    const b = this.meta[this.bottom]! - 1;
    Atomics.store(this.meta, this.bottom, b);
    const t = Atomics.load(this.meta, this.top);
    if (t > b) {
      Atomics.store(this.meta, this.bottom, b + 1);
      return EMPTY;
    }
    let node = this.buf[this.ringStart + (b & this.mask)]!;
    if (t === b) {
      // Last element: race the thieves for it through `top`.
      if (Atomics.compareExchange(this.meta, this.top, t, t + 1) !== t) node = EMPTY;
      Atomics.store(this.meta, this.bottom, b + 1);
    }
    return node;
  }

  /** Any thread: the oldest node, EMPTY, or ABORT when another thread won the race. */
  steal(): number {
    const t = Atomics.load(this.meta, this.top);
    const b = Atomics.load(this.meta, this.bottom);
    if (t >= b) return EMPTY;
    const node = this.buf[this.ringStart + (t & this.mask)]!;
    return Atomics.compareExchange(this.meta, this.top, t, t + 1) === t ? node : ABORT;
  }

  get size(): number {
    return Math.max(0, Atomics.load(this.meta, this.bottom) - Atomics.load(this.meta, this.top));
  }
}

/** Smallest power of two ≥ n (the ring's capacity). */
export function ringCapacity(n: number): number {
  let c = 1;
  while (c < n) c *= 2;
  return c;
}
