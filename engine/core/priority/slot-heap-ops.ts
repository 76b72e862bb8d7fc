/**
 * The O(n) passes the PRIO queue runs over its heap, slot table and id index together; the queue
 * decides when (docs/design.md §3.2 bounds) and rebuilds its quota index afterwards.
 */
import type { IdIndex } from './id-index.ts';
import type { KeyHeap } from './key-heap.ts';
import { MIN_SLOTS, type SlotTable } from './slot-table.ts';
import { packKey, priorityOfKey, sequenceOfKey } from './task-key.ts';

/** Compaction: drops every tombstone from the heap (freeing its slot) and re-heapifies, O(n). */
export function dropTombstones(heap: KeyHeap, table: SlotTable<unknown>): void {
  const { keys, slots } = heap;
  let kept = 0;
  for (let i = 0; i < heap.length; i++) {
    const slot = slots[i]!;
    if (table.isLive(slot)) {
      keys[kept] = keys[i]!;
      slots[kept++] = slot;
    } else {
      table.release(slot);
    }
  }
  heap.length = kept;
  heap.heapify();
}

/**
 * Moves the slots in the heap to the front of a table of twice the heap's length (a power of two,
 * at least `MIN_SLOTS`), renaming the slot at heap position i to i, and re-points the index.
 */
export function repackSlots(heap: KeyHeap, table: SlotTable<unknown>, index: IdIndex): void {
  const count = heap.length;
  let capacity = MIN_SLOTS;
  while (capacity < 2 * count) capacity *= 2;
  table.repack(heap.slots, count, capacity);
  heap.reslot(capacity);
  for (let slot = 0; slot < count; slot++) {
    if (table.isLive(slot)) index.move(table.id(slot), slot);
  }
}

/**
 * Renumbers the sequences of a heap without tombstones to 0..n−1 in their current order and
 * returns n. Every pair of keys keeps its order, so the heap stays a heap.
 */
export function renumberSequences(heap: KeyHeap, table: SlotTable<unknown>): number {
  const n = heap.length;
  const order = Array.from(heap.slots.subarray(0, n));
  order.sort((a, b) => sequenceOfKey(table.key(a)) - sequenceOfKey(table.key(b)));
  for (let rank = 0; rank < n; rank++) {
    const slot = order[rank]!;
    table.setKey(slot, packKey(priorityOfKey(table.key(slot)), rank));
  }
  for (let i = 0; i < n; i++) heap.keys[i] = table.key(heap.slots[i]!);
  return n;
}
