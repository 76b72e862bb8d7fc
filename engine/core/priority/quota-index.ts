/**
 * Index for the quota alternative to aging (DESIGN.md §3.2): one min-heap per priority band,
 * ordered by sequence (arrival order), sharing entries and tombstones with the main heap. It
 * answers "the oldest live entry of a band below band B" in O(log n) amortized; it exists only
 * while `quotaBurst > 0`, so the plain push/pop path pays nothing for it otherwise.
 */
import { BAND_COUNT, bandOf } from './bands.ts';
import type { Entry } from './entry-heap.ts';

export class QuotaIndex<T> {
  private readonly bands: Entry<T>[][] = [];
  private entries = 0;
  /** Band of the recent dequeues from the heap's head, and how many in a row. */
  private streakBand = -1;
  private streak = 0;

  constructor(live: Iterable<Entry<T>>) {
    for (let b = 0; b < BAND_COUNT; b++) this.bands.push([]);
    this.rebuild(live);
  }

  /** Entries held, tombstones included (the queue rebuilds when too many are dead). */
  get length(): number {
    return this.entries;
  }

  add(entry: Entry<T>): void {
    const heap = this.bands[bandOf(entry.priority)]!;
    heap.push(entry);
    siftUpBySequence(heap, heap.length - 1);
    this.entries++;
  }

  /**
   * What to dequeue, given the heap's live head: the head itself, or — once `burst` dequeues in a
   * row came from the head's band — the oldest live entry of a lower band, if there is one.
   */
  choose(head: Entry<T>, burst: number): Entry<T> {
    const band = bandOf(head.priority);
    if (band !== this.streakBand || this.streak < burst) return head;
    return this.oldestBelow(band) ?? head;
  }

  /** Records a dequeue of `entry`, which `choose` returned; `fromHead` when it was the head. */
  taken(entry: Entry<T>, fromHead: boolean): void {
    if (!fromHead) {
      this.takeTop(entry);
      this.streak = 0;
      return;
    }
    const band = bandOf(entry.priority);
    if (band === this.streakBand) {
      this.streak++;
    } else {
      this.streakBand = band;
      this.streak = 1;
    }
  }

  resetStreak(): void {
    this.streakBand = -1;
    this.streak = 0;
  }

  /** The oldest live entry whose band is below (less urgent than) `band`, left in place. */
  private oldestBelow(band: number): Entry<T> | undefined {
    let oldest: Entry<T> | undefined;
    for (let b = band + 1; b < BAND_COUNT; b++) {
      const heap = this.bands[b]!;
      let top = heap[0];
      while (top !== undefined && !top.alive) {
        this.popFrom(heap);
        top = heap[0];
      }
      if (top !== undefined && (oldest === undefined || top.sequence < oldest.sequence)) {
        oldest = top;
      }
    }
    return oldest;
  }

  /** Removes `entry`, which `oldestBelow` just returned (so it is the top of its band's heap). */
  private takeTop(entry: Entry<T>): void {
    this.popFrom(this.bands[bandOf(entry.priority)]!);
  }

  rebuild(live: Iterable<Entry<T>>): void {
    for (const heap of this.bands) heap.length = 0;
    this.entries = 0;
    for (const entry of live) {
      this.bands[bandOf(entry.priority)]!.push(entry);
      this.entries++;
    }
    for (const heap of this.bands) {
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDownBySequence(heap, i);
    }
  }

  private popFrom(heap: Entry<T>[]): void {
    const last = heap.pop();
    this.entries--;
    if (last === undefined || heap.length === 0) return;
    heap[0] = last;
    siftDownBySequence(heap, 0);
  }
}

function siftUpBySequence<T>(heap: Entry<T>[], index: number): void {
  const entry = heap[index]!;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const up = heap[parent]!;
    if (up.sequence <= entry.sequence) break;
    heap[i] = up;
    i = parent;
  }
  heap[i] = entry;
}

function siftDownBySequence<T>(heap: Entry<T>[], index: number): void {
  const n = heap.length;
  const entry = heap[index]!;
  let i = index;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && heap[child + 1]!.sequence < heap[child]!.sequence) child++;
    const down = heap[child]!;
    if (down.sequence >= entry.sequence) break;
    heap[i] = down;
    i = child;
  }
  heap[i] = entry;
}
