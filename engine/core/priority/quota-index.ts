/**
 * Index for the quota alternative to aging (docs/design.md §3.2): one min-heap per priority band of
 * `(sequence, slot)` pairs, ordered by sequence (arrival order). It answers "the oldest live task
 * of a band below B" in O(log n) amortized; it exists only while `quotaBurst > 0`, so the plain
 * push/pop path pays nothing for it otherwise.
 *
 * Like the main heap it deletes lazily: a pair is current only while its slot is LIVE with that
 * same sequence in that same band. A slot number can be reused (even by the same task after a
 * re-key), so the check is on what the slot holds now, never on the slot alone.
 */
import { BAND_COUNT, bandOf } from '../../../shared/lib/priority-bands.ts';
import type { SlotTable } from './slot-table.ts';
import { priorityOfKey, sequenceOfKey } from './task-key.ts';

interface BandHeap {
  sequences: number[];
  slots: number[];
}

export class QuotaIndex {
  private readonly bands: BandHeap[] = [];
  private entries = 0;
  /** Band of the recent dequeues from the heap's head, and how many in a row. */
  private streakBand = -1;
  private streak = 0;

  constructor(
    private readonly table: SlotTable<unknown>,
    live: Iterable<number>,
  ) {
    for (let b = 0; b < BAND_COUNT; b++) this.bands.push({ sequences: [], slots: [] });
    this.rebuild(live);
  }

  /** Pairs held, stale ones included (the queue rebuilds when too many are stale). */
  get length(): number {
    return this.entries;
  }

  /** Indexes the LIVE `slot` under its current key. */
  add(slot: number): void {
    const key = this.table.key(slot);
    const heap = this.bands[bandOf(priorityOfKey(key))]!;
    heap.sequences.push(sequenceOfKey(key));
    heap.slots.push(slot);
    siftUp(heap, heap.slots.length - 1);
    this.entries++;
  }

  /**
   * What to dequeue, given the heap's live head slot: the head itself, or — once `burst`
   * dequeues in a row came from the head's band — the oldest live task of a lower band, if any.
   */
  choose(head: number, burst: number): number {
    const band = bandOf(priorityOfKey(this.table.key(head)));
    if (band !== this.streakBand || this.streak < burst) return head;
    const below = this.oldestBelow(band);
    return below < 0 ? head : below;
  }

  /** Records a dequeue of `slot`, which `choose` returned; `fromHead` when it was the head. */
  taken(slot: number, fromHead: boolean): void {
    const band = bandOf(priorityOfKey(this.table.key(slot)));
    if (!fromHead) {
      // `oldestBelow` left the chosen pair on top of its band's heap.
      this.popFrom(this.bands[band]!);
      this.streak = 0;
      return;
    }
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

  /** Re-indexes from the LIVE slots `live` (after a repack renumbered them, or to drop stale pairs). */
  rebuild(live: Iterable<number>): void {
    for (const heap of this.bands) {
      heap.sequences.length = 0;
      heap.slots.length = 0;
    }
    this.entries = 0;
    for (const slot of live) {
      const key = this.table.key(slot);
      const heap = this.bands[bandOf(priorityOfKey(key))]!;
      heap.sequences.push(sequenceOfKey(key));
      heap.slots.push(slot);
      this.entries++;
    }
    for (const heap of this.bands) {
      for (let i = (heap.slots.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
    }
  }

  /** The slot of the oldest live task whose band is below (less urgent than) `band`, or −1. */
  private oldestBelow(band: number): number {
    let oldest = -1;
    let oldestSequence = Infinity;
    for (let b = band + 1; b < BAND_COUNT; b++) {
      const heap = this.bands[b]!;
      while (heap.slots.length > 0 && !this.current(heap, b)) this.popFrom(heap);
      if (heap.slots.length > 0 && heap.sequences[0]! < oldestSequence) {
        oldest = heap.slots[0]!;
        oldestSequence = heap.sequences[0]!;
      }
    }
    return oldest;
  }

  /** Whether the top pair of band `band`'s heap still describes a queued task. */
  private current(heap: BandHeap, band: number): boolean {
    const slot = heap.slots[0]!;
    const key = this.table.key(slot);
    return (
      this.table.isLive(slot) &&
      sequenceOfKey(key) === heap.sequences[0] &&
      bandOf(priorityOfKey(key)) === band
    );
  }

  private popFrom(heap: BandHeap): void {
    const sequence = heap.sequences.pop();
    const slot = heap.slots.pop();
    this.entries--;
    if (sequence === undefined || slot === undefined || heap.slots.length === 0) return;
    heap.sequences[0] = sequence;
    heap.slots[0] = slot;
    siftDown(heap, 0);
  }
}

function siftUp(heap: BandHeap, index: number): void {
  const { sequences, slots } = heap;
  const sequence = sequences[index]!;
  const slot = slots[index]!;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (sequences[parent]! <= sequence) break;
    sequences[i] = sequences[parent]!;
    slots[i] = slots[parent]!;
    i = parent;
  }
  sequences[i] = sequence;
  slots[i] = slot;
}

function siftDown(heap: BandHeap, index: number): void {
  const { sequences, slots } = heap;
  const n = slots.length;
  const sequence = sequences[index]!;
  const slot = slots[index]!;
  let i = index;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && sequences[child + 1]! < sequences[child]!) child++;
    if (sequences[child]! >= sequence) break;
    sequences[i] = sequences[child]!;
    slots[i] = slots[child]!;
    i = child;
  }
  sequences[i] = sequence;
  slots[i] = slot;
}
