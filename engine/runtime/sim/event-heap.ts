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
  /**
   * `(time, seq)` of each heap position, beside `heap`: sifting compares neighbouring keys in
   * flat arrays instead of following each position to its slot (the indirection was most of the
   * cost of an event with thousands of timers pending).
   */
  private heapTime = new Float64Array(64);
  private heapSeq = new Float64Array(64);
  private free: number[] = [];
  private slots = 0;
  private n = 0;

  /** `sequence` numbers events across every heap that shares it: one order over all of them. */
  constructor(private readonly sequence: { next: number } = { next: 0 }) {}

  get size(): number {
    return this.n;
  }

  /** Time of the earliest event; Infinity when empty. */
  peekTime(): number {
    return this.n === 0 ? Infinity : this.heapTime[0]!;
  }

  /** Sequence number of the earliest event; Infinity when empty. */
  peekSeq(): number {
    return this.n === 0 ? Infinity : this.heapSeq[0]!;
  }

  push(time: number, worker: number, gen: number, fn: (() => void) | null): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.newSlot();
    this.time[slot] = time;
    this.seq[slot] = this.sequence.next++;
    this.worker[slot] = worker;
    this.gen[slot] = gen;
    this.fns[slot] = fn;
    if (this.n === this.heap.length) {
      this.heap = grow(this.heap, new Int32Array(this.n * 2));
      this.heapTime = grow(this.heapTime, new Float64Array(this.n * 2));
      this.heapSeq = grow(this.heapSeq, new Float64Array(this.n * 2));
    }
    this.up(this.n++, slot);
    return slot;
  }

  /** Removes the earliest event and returns its slot (valid until the next push). */
  pop(): number {
    const top = this.heap[0]!;
    const last = this.heap[--this.n]!;
    if (this.n > 0) this.down(last);
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

  /** Places `slot` at position `i` (the hole left by a push) and sifts it up. */
  private up(i: number, slot: number): void {
    const h = this.heap;
    const ht = this.heapTime;
    const hs = this.heapSeq;
    const t = this.time[slot]!;
    const q = this.seq[slot]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = ht[p]!;
      if (!(t < pt || (t === pt && q < hs[p]!))) break;
      h[i] = h[p]!;
      ht[i] = pt;
      hs[i] = hs[p]!;
      i = p;
    }
    h[i] = slot;
    ht[i] = t;
    hs[i] = q;
  }

  /**
   * Refills the root after a pop, Floyd's way: the hole walks down to a leaf taking the earlier
   * child (one comparison per level instead of two), then `slot` — the last event, which usually
   * belongs near the bottom — sifts up from there. Keys are unique, so the order events leave in
   * is the same as with a plain sift-down.
   */
  private down(slot: number): void {
    const h = this.heap;
    const ht = this.heapTime;
    const hs = this.heapSeq;
    const n = this.n;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let ct = ht[c]!;
      let cq = hs[c]!;
      const r = c + 1;
      if (r < n) {
        const rt = ht[r]!;
        const rq = hs[r]!;
        if (rt < ct || (rt === ct && rq < cq)) {
          c = r;
          ct = rt;
          cq = rq;
        }
      }
      h[i] = h[c]!;
      ht[i] = ct;
      hs[i] = cq;
      i = c;
    }
    this.up(i, slot);
  }
}

function grow<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
