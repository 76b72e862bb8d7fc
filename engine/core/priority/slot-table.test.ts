import { describe, expect, it } from 'vitest';
import { MIN_SLOTS, SlotTable } from './slot-table.ts';

function fill(table: SlotTable<string>, n: number): number[] {
  return Array.from({ length: n }, (_, i) => table.alloc(i, `item${i}`, 1000 + i, i % 101, i * 10));
}

describe('SlotTable', () => {
  it('hands out the lowest fresh slots first and reuses the most recently freed one', () => {
    const table = new SlotTable<string>();
    expect(fill(table, 3)).toEqual([0, 1, 2]);
    table.release(1);
    table.release(0);
    expect(table.alloc('x', 'X', 5, 5, 5)).toBe(0); // freed last, reused first
    expect(table.alloc('y', 'Y', 6, 6, 6)).toBe(1);
    expect(table.alloc('z', 'Z', 7, 7, 7)).toBe(3);
    expect(table.capacity).toBe(MIN_SLOTS); // no growth while freed slots remain
  });

  it('doubles when full and keeps every slot’s fields', () => {
    const table = new SlotTable<string>();
    const slots = fill(table, MIN_SLOTS * 2 + 1);
    expect(table.capacity).toBe(MIN_SLOTS * 4);
    for (const slot of slots) {
      expect(table.id(slot)).toBe(slot);
      expect(table.item(slot)).toBe(`item${slot}`);
      expect(table.key(slot)).toBe(1000 + slot);
      expect(table.base(slot)).toBe(slot % 101);
      expect(table.readySince(slot)).toBe(slot * 10);
      expect(table.isLive(slot)).toBe(true);
    }
  });

  it('a tombstone drops its id and item but keeps its key, and is not free', () => {
    const table = new SlotTable<string>();
    fill(table, 2);
    table.kill(0);
    expect(table.isLive(0)).toBe(false);
    expect(table.item(0)).toBeUndefined();
    expect(table.id(0)).toBeUndefined();
    expect(table.key(0)).toBe(1000);
    expect(table.alloc('n', 'N', 1, 1, 1)).toBe(2); // slot 0 is still held by the heap
    expect([...table.live()]).toEqual([1, 2]);
  });

  it('repack moves the given slots to the front of a smaller table and frees the rest', () => {
    const table = new SlotTable<string>();
    fill(table, 200);
    table.kill(150);
    table.repack(Int32Array.from([150, 7, 42]), 3, MIN_SLOTS);
    expect(table.capacity).toBe(MIN_SLOTS);
    expect(table.isLive(0)).toBe(false); // state travels with the slot
    expect([table.id(1), table.item(1), table.key(1)]).toEqual([7, 'item7', 1007]);
    expect([table.id(2), table.base(2), table.readySince(2)]).toEqual([42, 42, 420]);
    expect([...table.live()]).toEqual([1, 2]);
    expect(table.alloc('n', 'N', 1, 1, 1)).toBe(3);
  });
});
