/**
 * The simulator's event queue: a binary min-heap of event slots ordered by (time, sequence), so
 * events at the same instant run in the order they were scheduled (determinism). Slots live in
 * parallel typed arrays and are recycled through a free list: scheduling an event allocates
 * nothing once the arrays have grown.
 */
export class EventHeap {
  private time = new Float64Array(64);
  private seq = new Float64Array(64);
  /** Payload: a worker id (≥ 0) for quantum ends, −1 for timers. */
  private worker = new Int32Array(64);
  private gen = new Int32Array(64);
  private fns: ((() => void) | null)[] = new Array<(() => void) | null>(64).fill(null);
  private heap = new Int32Array(64);
  private free: number[] = [];
  private slots = 0;
  private n = 0;
  private nextSeq = 0;

  get size(): number {
    return this.n;
  }

  /** Time of the earliest event; Infinity when empty. */
  peekTime(): number {
    return this.n === 0 ? Infinity : this.time[this.heap[0]!]!;
  }

  push(time: number, worker: number, gen: number, fn: (() => void) | null): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.newSlot();
    this.time[slot] = time;
    this.seq[slot] = this.nextSeq++;
    this.worker[slot] = worker;
    this.gen[slot] = gen;
    this.fns[slot] = fn;
    if (this.n === this.heap.length) this.heap = grow(this.heap, new Int32Array(this.n * 2));
    this.heap[this.n] = slot;
    this.up(this.n++);
    return slot;
  }

  /** Removes the earliest event and returns its slot (valid until the next push). */
  pop(): number {
    const top = this.heap[0]!;
    const last = this.heap[--this.n]!;
    if (this.n > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    this.free.push(top);
    return top;
  }

  slotTime(slot: number): number {
    return this.time[slot]!;
  }
  slotWorker(slot: number): number {
    return this.worker[slot]!;
  }
  slotGen(slot: number): number {
    return this.gen[slot]!;
  }
  slotSeq(slot: number): number {
    return this.seq[slot]!;
  }
  /** Takes the slot's callback (a cancelled timer has none). */
  takeFn(slot: number): (() => void) | null {
    const fn = this.fns[slot] ?? null;
    this.fns[slot] = null;
    return fn;
  }
  /** Cancels a pending timer if `slot` still holds the event with sequence `seq`. */
  cancel(slot: number, seq: number): void {
    if (this.seq[slot] === seq) this.fns[slot] = null;
  }

  clear(): void {
    this.n = 0;
    this.free = [];
    this.slots = 0;
    this.fns.fill(null);
  }

  private newSlot(): number {
    const slot = this.slots++;
    if (slot === this.time.length) {
      const cap = slot * 2;
      this.time = grow(this.time, new Float64Array(cap));
      this.seq = grow(this.seq, new Float64Array(cap));
      this.worker = grow(this.worker, new Int32Array(cap));
      this.gen = grow(this.gen, new Int32Array(cap));
      this.fns.length = cap;
      this.fns.fill(null, slot);
    }
    return slot;
  }

  private less(a: number, b: number): boolean {
    const ta = this.time[a]!;
    const tb = this.time[b]!;
    return ta < tb || (ta === tb && this.seq[a]! < this.seq[b]!);
  }

  private up(i: number): void {
    const h = this.heap;
    const slot = h[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const ps = h[p]!;
      if (!this.less(slot, ps)) break;
      h[i] = ps;
      i = p;
    }
    h[i] = slot;
  }

  private down(i: number): void {
    const h = this.heap;
    const n = this.n;
    const slot = h[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n && this.less(h[r]!, h[c]!)) c = r;
      if (!this.less(h[c]!, slot)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = slot;
  }
}

function grow<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
