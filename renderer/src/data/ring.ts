/**
 * A fixed-capacity ring of values: pushing past capacity overwrites the oldest. Telemetry arrives
 * forever at 10 Hz, so every series the UI keeps lives in one of these (memory bounded by design).
 */
export class Ring<T> {
  readonly capacity: number;
  private readonly items: (T | undefined)[];
  private head = 0; // index of the next write
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.head] = item;
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** i = 0 is the oldest retained item. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.head - this.count + i + this.capacity) % this.capacity];
  }

  last(): T | undefined {
    return this.at(this.count - 1);
  }

  /** Oldest first; allocates, so call it per redraw, not per item. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i) as T);
    return out;
  }

  /** The newest `n` items, oldest first. */
  tail(n: number): T[] {
    const out: T[] = [];
    for (let i = Math.max(0, this.count - n); i < this.count; i++) out.push(this.at(i) as T);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
  }
}
