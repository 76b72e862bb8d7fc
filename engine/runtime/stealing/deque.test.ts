import { describe, expect, it } from 'vitest';
import { ABORT, DEQUE_META_INTS, EMPTY, WorkDeque, ringCapacity } from './deque.ts';

const make = (capacity: number) =>
  new WorkDeque(
    new Int32Array(new SharedArrayBuffer(4 * DEQUE_META_INTS)),
    new Int32Array(new SharedArrayBuffer(4 * capacity)),
    0,
    0,
    capacity,
  );

describe('WorkDeque', () => {
  it('gives the owner the newest node and thieves the oldest', () => {
    const d = make(8);
    for (const v of [10, 11, 12, 13]) d.push(v);
    expect(d.steal()).toBe(10);
    expect(d.pop()).toBe(13);
    expect(d.steal()).toBe(11);
    expect(d.pop()).toBe(12);
    expect(d.pop()).toBe(EMPTY);
    expect(d.steal()).toBe(EMPTY);
    expect(d.size).toBe(0);
  });

  it('hands the last element to exactly one of owner and thief', () => {
    const d = make(4);
    d.push(7);
    expect(d.steal()).toBe(7);
    expect(d.pop()).toBe(EMPTY);
    d.push(8);
    expect(d.pop()).toBe(8);
    expect(d.steal()).toBe(EMPTY);
    expect(ABORT).not.toBe(EMPTY);
  });

  it('publishes a batch (a range of an array) with pushRange in order', () => {
    const d = make(8);
    d.pushRange(Int32Array.of(0, 1, 2, 3, 9), 1, 4);
    d.push(4);
    expect([d.steal(), d.pop(), d.pop(), d.steal(), d.pop()]).toEqual([1, 4, 3, 2, EMPTY]);
  });

  it('pushRange wraps around the ring end and stays inside its own part of a shared ring', () => {
    const meta = new Int32Array(new SharedArrayBuffer(4 * DEQUE_META_INTS * 2));
    const ring = new Int32Array(new SharedArrayBuffer(4 * 8)).fill(-9);
    const d = new WorkDeque(meta, ring, 1, 4, 4); // owner 1: ring[4..8)
    d.pushRange(Int32Array.of(1, 2, 3), 0, 3);
    expect([d.steal(), d.steal()]).toEqual([1, 2]);
    d.pushRange(Int32Array.of(4, 5, 6), 0, 3); // slots 3, 0, 1: wraps
    expect([d.steal(), d.steal(), d.pop(), d.pop(), d.pop()]).toEqual([3, 4, 6, 5, EMPTY]);
    expect(Array.from(ring.subarray(0, 4))).toEqual([-9, -9, -9, -9]);
  });

  it('sizes its ring to the next power of two', () => {
    expect([1, 2, 3, 1000, 1024, 1025].map(ringCapacity)).toEqual([1, 2, 4, 1024, 1024, 2048]);
  });
});
