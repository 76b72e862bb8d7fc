/**
 * One MLFQ level's waiting splits: a binary min-heap on `(levelPriority, sequence)` whose entries
 * remember their index, so `remove` is O(log n) without tombstones. The comparison is written out
 * rather than passed in: this heap sits on the hot path of every quantum.
 */
export interface LevelEntry<S> {
  split: S;
  level: number;
  /** The levelPriority the split was queued with (its cached Priority at offer time). */
  levelPriority: number;
  sequence: number;
  /** Position in its level's heap; −1 when not queued. */
  heapIndex: number;
  /** Maintained by the queue's `SplitIndex`. */
  queued: boolean;
}

function less<S>(a: LevelEntry<S>, b: LevelEntry<S>): boolean {
  return (
    a.levelPriority < b.levelPriority ||
    (a.levelPriority === b.levelPriority && a.sequence < b.sequence)
  );
}

export function compareEntries<S>(a: LevelEntry<S>, b: LevelEntry<S>): number {
  return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}

export class LevelHeap<S> {
  private readonly entries: LevelEntry<S>[] = [];
  /**
   * Each position's `(levelPriority, sequence)` copied into flat arrays beside `entries`: sifting
   * compares keys without loading the entry objects (scattered in memory; the loads were most of
   * the cost of a take on a deep level).
   */
  private prio = new Float64Array(64);
  private seq = new Float64Array(64);

  get size(): number {
    return this.entries.length;
  }

  push(entry: LevelEntry<S>): void {
    const n = this.entries.length;
    if (n === this.prio.length) this.grow();
    this.entries.push(entry);
    this.siftUp(entry, n);
  }

  pop(): LevelEntry<S> | undefined {
    const entries = this.entries;
    const top = entries[0];
    const last = entries.pop();
    if (top === undefined || last === undefined) return undefined;
    top.heapIndex = -1;
    if (entries.length > 0) this.refill(last);
    return top;
  }

  /** False when the entry is not in this heap. */
  remove(entry: LevelEntry<S>): boolean {
    const entries = this.entries;
    const i = entry.heapIndex;
    if (i < 0 || entries[i] !== entry) return false;
    const last = entries.pop()!;
    entry.heapIndex = -1;
    if (i < entries.length) {
      this.siftUp(last, i);
      if (last.heapIndex === i) this.siftDown(last, i);
    }
    return true;
  }

  /** Empties the level; returns its entries sorted by `(levelPriority, sequence)`. */
  clear(): LevelEntry<S>[] {
    const all = this.entries.splice(0, this.entries.length);
    for (const entry of all) entry.heapIndex = -1;
    return all.sort(compareEntries);
  }

  private grow(): void {
    const prio = new Float64Array(this.prio.length * 2);
    const seq = new Float64Array(this.seq.length * 2);
    prio.set(this.prio);
    seq.set(this.seq);
    this.prio = prio;
    this.seq = seq;
  }

  /**
   * Floyd's bottom-up pop: the hole at the root walks down to a leaf taking the smaller child
   * (one comparison per level instead of two), then `last` — which came from the bottom and
   * usually belongs near it — sifts up from there. A quarter fewer comparisons per take.
   */
  private refill(last: LevelEntry<S>): void {
    const entries = this.entries;
    const prio = this.prio;
    const seq = this.seq;
    const n = entries.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = left;
      let cp = prio[left]!;
      let cq = seq[left]!;
      const right = left + 1;
      if (right < n) {
        const rp = prio[right]!;
        const rq = seq[right]!;
        if (rp < cp || (rp === cp && rq < cq)) {
          child = right;
          cp = rp;
          cq = rq;
        }
      }
      const childEntry = entries[child]!;
      entries[i] = childEntry;
      prio[i] = cp;
      seq[i] = cq;
      childEntry.heapIndex = i;
      i = child;
    }
    this.siftUp(last, i);
  }

  private siftUp(entry: LevelEntry<S>, start: number): void {
    const entries = this.entries;
    const prio = this.prio;
    const seq = this.seq;
    const p = entry.levelPriority;
    const q = entry.sequence;
    let i = start;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const pp = prio[parentIndex]!;
      if (!(p < pp || (p === pp && q < seq[parentIndex]!))) break;
      const parent = entries[parentIndex]!;
      entries[i] = parent;
      prio[i] = pp;
      seq[i] = seq[parentIndex]!;
      parent.heapIndex = i;
      i = parentIndex;
    }
    entries[i] = entry;
    prio[i] = p;
    seq[i] = q;
    entry.heapIndex = i;
  }

  private siftDown(entry: LevelEntry<S>, start: number): void {
    const entries = this.entries;
    const prio = this.prio;
    const seq = this.seq;
    const n = entries.length;
    const p = entry.levelPriority;
    const q = entry.sequence;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = left;
      let cp = prio[left]!;
      let cq = seq[left]!;
      const right = left + 1;
      if (right < n) {
        const rp = prio[right]!;
        const rq = seq[right]!;
        if (rp < cp || (rp === cp && rq < cq)) {
          child = right;
          cp = rp;
          cq = rq;
        }
      }
      if (!(cp < p || (cp === p && cq < q))) break;
      const childEntry = entries[child]!;
      entries[i] = childEntry;
      prio[i] = cp;
      seq[i] = cq;
      childEntry.heapIndex = i;
      i = child;
    }
    entries[i] = entry;
    prio[i] = p;
    seq[i] = q;
    entry.heapIndex = i;
  }
}
