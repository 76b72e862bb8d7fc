/**
 * One MLFQ level's waiting splits: a binary min-heap on `(levelPriority, sequence)`. `remove` is
 * lazy: the entry stays in the array as a tombstone (its `queued` flag is already down) and is
 * dropped when it reaches the top, or all at once when tombstones outnumber the live entries.
 * Entries need not remember their position, so sifting never writes to them — those scattered
 * writes were a fifth of the cost of a take. The comparison is written out rather than passed in:
 * this heap sits on the hot path of every quantum.
 *
 * Beside the heap, a sorted *tail*: an entry that comes no earlier than the last one appended
 * there is appended instead of pushed, and a take compares the tail's head with the heap's top.
 * New splits of equal priority arrive in sequence order (a service's one-split runs, a query's
 * splits), so a deep level is mostly a FIFO: appending and taking from the tail costs O(1), where
 * the heap's take walked down log₂ n levels of a large array (a sixth of the main thread on 100k
 * queued library runs).
 */
import type { FairnessGroup } from '../ready-queue.ts';

export interface LevelEntry<S> {
  split: S;
  /** The split's fairness group (fixed while it is queued): a take reads its Priority from here
   * without first waiting for the split record to load. */
  group: FairnessGroup;
  level: number;
  /** The levelPriority the split was queued with (its cached Priority at offer time). */
  levelPriority: number;
  readonly sequence: number;
  /** In a heap's array, live or as a tombstone: such an entry cannot be queued anew. */
  inHeap: boolean;
  /** Maintained by the queue's `SplitIndex`; false on an entry in a heap = a tombstone. */
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

/** Tombstones are tolerated up to this many, or as many as the live entries. */
const COMPACT_FLOOR = 64;
/** Taken tail slots are cut off once there are this many and they are half the tail. */
const TAIL_CUT = 4096;

export class LevelHeap<S, E extends LevelEntry<S> = LevelEntry<S>> {
  private readonly entries: E[] = [];
  /**
   * Each position's `(levelPriority, sequence)` copied into flat arrays beside `entries`: sifting
   * compares keys without loading the entry objects (scattered in memory; the loads were most of
   * the cost of a take on a deep level).
   */
  private prio = new Float64Array(64);
  private seq = new Float64Array(64);

  /**
   * The sorted tail: entries from `tailHead` on, in `(levelPriority, sequence)` order, their keys
   * beside them as in the heap. Slots before `tailHead` were taken.
   */
  private tail: (E | undefined)[] = [];
  private tailPrio: number[] = [];
  private tailSeq: number[] = [];
  private tailHead = 0;

  /** Tombstones still in `entries` or the tail. */
  private dead = 0;

  /** Live entries. */
  get size(): number {
    return this.length - this.dead;
  }

  /** Entries held: live ones and tombstones, in the heap and the tail. */
  get length(): number {
    return this.entries.length + this.tail.length - this.tailHead;
  }

  push(entry: E): void {
    entry.inHeap = true;
    const p = entry.levelPriority;
    const q = entry.sequence;
    const t = this.tail.length;
    if (t === this.tailHead) {
      this.cutTail(t);
      this.append(entry, p, q);
      return;
    }
    const lp = this.tailPrio[t - 1]!;
    if (p > lp || (p === lp && q > this.tailSeq[t - 1]!)) {
      this.append(entry, p, q);
      return;
    }
    const n = this.entries.length;
    if (n === this.prio.length) this.grow();
    this.entries.push(entry);
    this.siftUp(entry, n);
  }

  /** The live entry first in `(levelPriority, sequence)` order, taken out; undefined if none. */
  pop(): E | undefined {
    const entries = this.entries;
    for (;;) {
      const h = this.tailHead;
      if (h < this.tail.length) {
        const tp = this.tailPrio[h]!;
        const hp = this.prio[0]!;
        if (entries.length === 0 || tp < hp || (tp === hp && this.tailSeq[h]! < this.seq[0]!)) {
          const first = this.tail[h]!;
          // Taken slots wait to be cut off in bulk; holding the entry till then would keep its
          // split (and what its run holds: input, the caller's promise) alive after it ended.
          this.tail[h] = undefined;
          this.tailHead = h + 1;
          if (this.tailHead >= TAIL_CUT && this.tailHead * 2 >= this.tail.length) {
            this.cutTail(this.tailHead);
          }
          first.inHeap = false;
          if (first.queued) return first;
          this.dead--;
          continue;
        }
      }
      const top = entries[0];
      const last = entries.pop();
      if (top === undefined || last === undefined) return undefined;
      if (entries.length > 0) this.refill(last);
      top.inHeap = false;
      if (top.queued) return top;
      this.dead--;
    }
  }

  /** Takes out an entry known to be live in this heap, whose `queued` flag is already down. */
  remove(entry: E): void {
    if (!entry.inHeap) return;
    this.dead++;
    if (this.dead > COMPACT_FLOOR && this.dead > this.length - this.dead) this.compact();
  }

  /** Empties the level; returns its live entries sorted by `(levelPriority, sequence)`. */
  clear(): E[] {
    const all = this.entries.splice(0, this.entries.length);
    for (let i = this.tailHead; i < this.tail.length; i++) all.push(this.tail[i]!);
    this.tailHead = this.tail.length;
    this.cutTail(this.tailHead);
    for (const entry of all) entry.inHeap = false;
    this.dead = 0;
    return all.filter((entry) => entry.queued).sort(compareEntries);
  }

  private append(entry: E, p: number, q: number): void {
    this.tail.push(entry);
    this.tailPrio.push(p);
    this.tailSeq.push(q);
  }

  /** Drops the tail's first `n` slots, all taken (`n` ≤ `tailHead`). */
  private cutTail(n: number): void {
    if (n === 0) return;
    if (n === this.tail.length) {
      this.tail.length = 0;
      this.tailPrio.length = 0;
      this.tailSeq.length = 0;
    } else {
      this.tail.splice(0, n);
      this.tailPrio.splice(0, n);
      this.tailSeq.splice(0, n);
    }
    this.tailHead -= n;
  }

  /** Drops every tombstone, from the tail in order, and rebuilds the heap in O(n). */
  private compact(): void {
    this.compactTail();
    const entries = this.entries;
    let kept = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.queued) {
        entries[kept] = entry;
        this.prio[kept] = entry.levelPriority;
        this.seq[kept] = entry.sequence;
        kept++;
      } else {
        entry.inHeap = false;
      }
    }
    entries.length = kept;
    this.dead = 0;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.siftDown(entries[i]!, i);
  }

  private compactTail(): void {
    const { tail, tailPrio, tailSeq } = this;
    let kept = 0;
    for (let i = this.tailHead; i < tail.length; i++) {
      const entry = tail[i]!;
      if (entry.queued) {
        tail[kept] = entry;
        tailPrio[kept] = tailPrio[i]!;
        tailSeq[kept] = tailSeq[i]!;
        kept++;
      } else {
        entry.inHeap = false;
      }
    }
    tail.length = kept;
    tailPrio.length = kept;
    tailSeq.length = kept;
    this.tailHead = 0;
  }

  private grow(): void {
    const prio = new Float64Array(this.prio.length * 2);
    const seq = new Float64Array(this.seq.length * 2);
    prio.set(this.prio);
    seq.set(this.seq);
    this.prio = prio;
    this.seq = seq;
  }

  /** The child of `i` that comes first in `(levelPriority, sequence)` order; −1 at a leaf. */
  private firstChild(i: number, n: number): number {
    const left = 2 * i + 1;
    if (left >= n) return -1;
    const right = left + 1;
    if (right >= n) return left;
    const lp = this.prio[left]!;
    const rp = this.prio[right]!;
    return rp < lp || (rp === lp && this.seq[right]! < this.seq[left]!) ? right : left;
  }

  /**
   * Floyd's bottom-up pop: the hole at the root walks down to a leaf taking the smaller child
   * (one comparison per level instead of two), then `last` — which came from the bottom and
   * usually belongs near it — sifts up from there. A quarter fewer comparisons per take.
   */
  private refill(last: E): void {
    const entries = this.entries;
    const prio = this.prio;
    const seq = this.seq;
    const n = entries.length;
    let i = 0;
    for (let child = this.firstChild(i, n); child >= 0; child = this.firstChild(i, n)) {
      entries[i] = entries[child]!;
      prio[i] = prio[child]!;
      seq[i] = seq[child]!;
      i = child;
    }
    this.siftUp(last, i);
  }

  private siftUp(entry: E, start: number): void {
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
      i = parentIndex;
    }
    entries[i] = entry;
    prio[i] = p;
    seq[i] = q;
  }

  private siftDown(entry: E, start: number): void {
    const entries = this.entries;
    const prio = this.prio;
    const seq = this.seq;
    const n = entries.length;
    const p = entry.levelPriority;
    const q = entry.sequence;
    let i = start;
    for (let child = this.firstChild(i, n); child >= 0; child = this.firstChild(i, n)) {
      const cp = prio[child]!;
      const cq = seq[child]!;
      if (!(cp < p || (cp === p && cq < q))) break;
      const childEntry = entries[child]!;
      entries[i] = childEntry;
      prio[i] = cp;
      seq[i] = cq;
      i = child;
    }
    entries[i] = entry;
    prio[i] = p;
    seq[i] = q;
  }
}
