/**
 * Records by numeric id, for the executor's live jobs, tasks and splits: a dense array indexed by
 * `id - base`, which costs 8 bytes a live record where a `Map` costs about 40 (its hash table,
 * chains and entries; measured with 50k queued library runs). The executor hands ids out in
 * increasing order and records end roughly in that order, so the array stays dense: the empty
 * slots at its front are cut off as they accumulate.
 *
 * A record that outlives many later ones (a long run beside a stream of short ones) would keep
 * the array long and mostly empty, so once empty slots outnumber live records by far, the live
 * records of the array's older half move to a small map (`far`) and that half is cut off. Slots
 * kept stay within max(FLOOR, 4 × live) + live.
 *
 * Iteration is in increasing id order, as a `Map`'s insertion order was (ids are inserted in
 * increasing order; an id below the array's base goes to `far`). A record set or deleted while
 * iterating is seen or skipped as its slot says; do not rely on more (callers copy first).
 */

/** Below this many slots the array is never cut. */
const FLOOR = 1024;

export class IdTable<T> {
  private slots: (T | undefined)[] = [];
  /** The id of `slots[0]`. */
  private base = 0;
  /** Slots before `head` are empty. */
  private head = 0;
  /** Live records in `slots`. */
  private inSlots = 0;
  /** Live records with ids below `base`. */
  private far: Map<number, T> | null = null;

  /** Live records. */
  get size(): number {
    return this.inSlots + (this.far?.size ?? 0);
  }

  /** Slots and map entries held, live or empty (for memory checks). */
  get kept(): number {
    return this.slots.length - this.head + (this.far?.size ?? 0);
  }

  get(id: number): T | undefined {
    const i = id - this.base;
    if (i >= 0) return i < this.slots.length ? this.slots[i] : undefined;
    return this.far?.get(id);
  }

  set(id: number, value: T): void {
    if (this.inSlots === 0) {
      // Nothing live in the array: it starts again at this id, whatever the gap.
      this.slots.length = 0;
      this.head = 0;
      this.base = id;
    }
    const i = id - this.base;
    if (i < 0) {
      this.far ??= new Map();
      this.far.set(id, value);
      return;
    }
    const slots = this.slots;
    while (slots.length < i) slots.push(undefined);
    if (i === slots.length) slots.push(value);
    else {
      if (slots[i] === undefined) this.inSlots++;
      slots[i] = value;
      if (i < this.head) this.head = i;
      return;
    }
    this.inSlots++;
  }

  /** Whether `id` was live. */
  delete(id: number): boolean {
    const i = id - this.base;
    if (i < 0) return this.far?.delete(id) ?? false;
    const slots = this.slots;
    if (i >= slots.length || slots[i] === undefined) return false;
    slots[i] = undefined;
    this.inSlots--;
    if (i === this.head) {
      let head = i + 1;
      while (head < slots.length && slots[head] === undefined) head++;
      this.head = head;
    }
    this.trim();
    return true;
  }

  /**
   * The live records, oldest id first (those moved to `far` before the rest). Safe to hold across
   * changes (a pass spread over frames does): no record is visited twice; one that ended
   * meanwhile may still be, so a caller checks its state; one added (or, rarely, moved to `far`)
   * meanwhile may be missed, left to the next pass.
   */
  *values(): IterableIterator<T> {
    if (this.far !== null) yield* [...this.far.values()];
    const slots = this.slots;
    for (let i = this.head; i < slots.length; i++) {
      const v = slots[i];
      if (v !== undefined) yield v;
    }
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /** Cuts empty slots off the front; moves old stragglers to `far` when the array is sparse. */
  private trim(): void {
    const slots = this.slots;
    const length = slots.length;
    if (this.head === length) {
      this.base += length;
      this.head = 0;
      slots.length = 0;
      return;
    }
    if (this.head >= FLOOR && 2 * this.head >= length) {
      this.cut(this.head);
      return;
    }
    const span = length - this.head;
    if (span >= FLOOR && span > 4 * this.inSlots) {
      const cut = this.head + (span >> 1);
      this.far ??= new Map();
      for (let i = this.head; i < cut; i++) {
        const v = slots[i];
        if (v !== undefined) {
          this.far.set(this.base + i, v);
          this.inSlots--;
        }
      }
      this.cut(cut);
    }
  }

  /** Drops `slots[0, n)` (empty by now, or moved to `far`). */
  private cut(n: number): void {
    const rest = this.slots.slice(n);
    this.slots = rest;
    this.base += n;
    let head = 0;
    while (head < rest.length && rest[head] === undefined) head++;
    this.head = head;
  }
}
