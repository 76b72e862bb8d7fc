/**
 * The last `capacity` items of a stream, overwritten in place: memory is the capacity, however
 * long the stream runs (memory bounded by design). Every bounded history in SchedLab is one of
 * these — the executor's events and job rows, a trace's spans and edges, the session's chart
 * history, the renderer's series and markers, graph spans waiting for a frame.
 *
 * Two ways to read it. By position among the items held: `at(0)` is the oldest, `toArray()`,
 * `tail(n)`, `last()`. By cursor, for readers that come back for more: `total` is the cursor after
 * the newest item; `since(cursor)` reads what was written after a cursor (oldest first) and
 * `droppedSince(cursor)` counts what was overwritten before that read, so a slow reader learns
 * what it missed instead of losing it silently.
 *
 * A capacity of 0 holds nothing and counts every push as dropped.
 *
 * Where items differ widely in size (a chart point with a frame's sample buckets: a few numbers,
 * or tens of thousands), a count alone does not bound memory: a `RingBudget` also bounds their
 * total cost, the oldest let go first past it (the newest is always held).
 */
export interface RingBudget<T> {
  /** What an item costs (read once, as it is pushed). */
  cost(item: T): number;
  /** The most the items held may cost together. */
  readonly budget: number;
}

export class Ring<T> {
  private items: (T | undefined)[] = [];
  private written = 0;
  /** The cursor of the oldest item held unless overwritten since (`dropOldest` moves it). */
  private start = 0;
  /** With a budget: each slot's cost (0 once let go), and the total held. */
  private costs: number[] = [];
  private held = 0;

  constructor(
    readonly capacity: number,
    private readonly limit?: RingBudget<T>,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`Ring capacity must be an integer >= 0, got ${capacity}`);
    // A NaN budget would switch the bound off without a word (`held > NaN` is never true).
    if (limit !== undefined && !(limit.budget >= 0))
      throw new RangeError(`Ring budget must be a number >= 0, got ${limit.budget}`);
  }

  /** The most the items held may cost together (undefined without a budget). */
  get budget(): number | undefined {
    return this.limit?.budget;
  }

  /** The total cost of the items held (0 without a budget). */
  get cost(): number {
    return this.held;
  }

  /** Items ever written since the last `clear` (the cursor after the newest). */
  get total(): number {
    return this.written;
  }

  /** Items held now. */
  get size(): number {
    return this.written - Math.max(this.start, this.written - this.capacity);
  }

  /** Items written that the ring no longer holds. */
  get dropped(): number {
    return this.written - this.size;
  }

  push(item: T): void {
    if (this.capacity === 0) {
      this.written++;
      return;
    }
    const slot = this.written % this.capacity;
    if (this.items.length < this.capacity) this.items.push(item);
    else this.items[slot] = item;
    if (this.limit !== undefined) {
      const cost = Math.max(0, this.limit.cost(item) || 0); // NaN or negative: free
      this.held += cost - (this.costs[slot] ?? 0); // the item overwritten, if any, is let go
      this.costs[slot] = cost;
    }
    this.written++;
    if (this.limit !== undefined) {
      while (this.held > this.limit.budget && this.size > 1) this.dropOldest();
    }
  }

  /** Lets the oldest item go (returns it), as if overwritten. */
  dropOldest(): T | undefined {
    if (this.size === 0) return undefined;
    const cursor = this.written - this.size;
    const slot = cursor % this.capacity;
    const item = this.items[slot];
    this.items[slot] = undefined; // its memory goes now, not when the slot is written again
    this.held -= this.costs[slot] ?? 0;
    this.costs[slot] = 0;
    this.start = cursor + 1;
    return item;
  }

  /** The i-th oldest item held (0 = oldest), or undefined outside `0 <= i < size`. */
  at(i: number): T | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) return undefined;
    return this.items[(this.written - this.size + i) % this.capacity];
  }

  /** The oldest item held. */
  oldest(): T | undefined {
    return this.at(0);
  }

  /** The newest item. */
  last(): T | undefined {
    return this.at(this.size - 1);
  }

  /** Every item held, oldest first; allocates, so call it per read, not per item. */
  toArray(): T[] {
    return this.since(0);
  }

  /** The newest `n` items, oldest first. */
  tail(n: number): T[] {
    return this.since(this.written - Math.max(0, n));
  }

  /** Items written after cursor `from` that are still held, oldest first. */
  since(from: number): T[] {
    const out: T[] = [];
    for (let n = Math.max(from, this.written - this.size); n < this.written; n++) {
      out.push(this.items[n % this.capacity]!);
    }
    return out;
  }

  /** Items written after cursor `from` that the ring no longer holds. */
  droppedSince(from: number): number {
    return Math.max(0, this.written - this.size - from);
  }

  /** Appends up to `count` items to `out`, newest first. */
  newest(count: number, out: T[]): void {
    const stop = this.written - Math.min(count, this.size);
    for (let n = this.written - 1; n >= stop; n--) out.push(this.items[n % this.capacity]!);
  }

  /** An item held that matches (in storage order: for lookups by a unique key). */
  find(match: (item: T) => boolean): T | undefined {
    return this.items.find((item) => item !== undefined && match(item));
  }

  /** Forgets every item and the count written. */
  clear(): void {
    this.items = [];
    this.written = 0;
    this.start = 0;
    this.costs = [];
    this.held = 0;
  }
}
