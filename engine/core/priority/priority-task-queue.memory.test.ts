// What the typed-array layout must not change about the queue (docs/design.md §3.2): memory follows the
// live count back down, slots and sequences are reused or renumbered invisibly, and the quota
// index never mistakes a reused slot for the task that used to hold it.
import { describe, expect, it } from 'vitest';
import { SchedLabError } from '../../../shared/errors.ts';
import { PriorityTaskQueue } from './priority-task-queue.ts';
import { SHRINK_ABOVE } from './slot-table.ts';
import { SEQUENCE_LIMIT } from './task-key.ts';

function popIds<T>(q: PriorityTaskQueue<T>): (string | number)[] {
  const out: (string | number)[] = [];
  for (let t = q.pop(); t !== null; t = q.pop()) out.push(t.id);
  return out;
}

describe('PriorityTaskQueue memory', () => {
  it('grows by doubling and shrinks back as it is drained by pops', () => {
    const q = new PriorityTaskQueue<number>({ aging: false });
    for (let i = 0; i < 20_000; i++) q.push(i, i, i % 101);
    expect(q.capacity).toBe(32_768);
    for (let i = 0; i < 19_990; i++) q.pop();
    expect(q.capacity).toBeLessThanOrEqual(SHRINK_ABOVE);
    expect(q.size).toBe(10);
    // The survivors are intact and still in order after their slots moved.
    const order = Array.from({ length: 20_000 }, (_, i) => i).sort(
      (a, b) => (a % 101) - (b % 101) || a - b,
    );
    expect(popIds(q)).toEqual(order.slice(-10));
  });

  it('compaction gives the memory of dead entries back', () => {
    const q = new PriorityTaskQueue<number>({ aging: false, compactionMin: 1 << 20 });
    for (let i = 0; i < 10_000; i++) q.push(i, i, 50);
    for (let i = 0; i < 9_990; i++) q.remove(i);
    expect(q.capacity).toBe(16_384); // tombstones hold their slots until compaction
    q.compact();
    expect(q.heapLength).toBe(10);
    expect(q.capacity).toBeLessThanOrEqual(SHRINK_ABOVE);
    expect(popIds(q)).toEqual(Array.from({ length: 10 }, (_, i) => 9_990 + i));
  });

  it('reuses the slots popped tasks leave, so a steady queue does not grow', () => {
    const q = new PriorityTaskQueue<number>({ aging: false });
    for (let i = 0; i < 100; i++) q.push(i, i, i % 7);
    const capacity = q.capacity;
    for (let i = 100; i < 100_000; i++) {
      q.pop();
      q.push(i, i, i % 7);
    }
    expect(q.capacity).toBe(capacity);
    expect(q.size).toBe(100);
  });

  it('a drained queue keeps nothing of what it held', () => {
    const q = new PriorityTaskQueue<{ payload: number[] }>({ aging: false });
    for (let i = 0; i < 5_000; i++) q.push(i, { payload: [i] }, 3);
    expect(q.drain()).toHaveLength(5_000);
    expect(q.capacity).toBeLessThanOrEqual(SHRINK_ABOVE);
    expect(q.heapLength).toBe(0);
    q.push(1, { payload: [1] }, 3); // ids are free again
    expect(q.pop()?.item.payload).toEqual([1]);
  });
});

describe('PriorityTaskQueue sequences', () => {
  it('renumbers sequences at the limit without changing FIFO among equals', () => {
    const q = new PriorityTaskQueue<number>({ aging: false }, 8);
    const expected: number[] = [];
    let next = 0;
    // Keep 5 tasks of one priority queued while 200 more arrive: many renumberings.
    for (let i = 0; i < 5; i++) q.push(next++, 0, 40);
    for (let round = 0; round < 200; round++) {
      expected.push(q.pop()!.id as number);
      q.push(next++, 0, 40);
    }
    expected.push(...popIds(q).map(Number));
    expect(expected).toEqual(Array.from({ length: 205 }, (_, i) => i));
    expect(q.compactions).toBeGreaterThan(20); // each renumbering compacts first
  });

  it('a re-prioritised task keeps its new place among equals across a renumbering', () => {
    const q = new PriorityTaskQueue<string>({ aging: false }, 6);
    q.push('a', 'a', 30);
    q.push('b', 'b', 20);
    q.push('c', 'c', 20);
    q.updatePriority('a', 20); // a new sequence: behind b and c
    for (const id of ['d', 'e', 'f', 'g']) q.push(id, id, 20); // crosses the limit
    q.updatePriority('d', 20); // at the limit: renumbers first, then goes to the back
    expect(popIds(q)).toEqual(['b', 'c', 'a', 'e', 'f', 'g', 'd']);
  });

  it('sequenceLimit outside 1..SEQUENCE_LIMIT is an INVALID_ARGUMENT naming it', () => {
    for (const bad of [0, 1.5, SEQUENCE_LIMIT + 1]) {
      const err = (() => {
        try {
          new PriorityTaskQueue({}, bad);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(SchedLabError);
      expect((err as SchedLabError).field).toBe('sequenceLimit');
    }
  });
});

describe('PriorityTaskQueue quota over reused slots', () => {
  it('a task re-keyed into the slot it left is not taken for a lower band it has left', () => {
    const q = new PriorityTaskQueue<string>({ aging: false, quotaBurst: 1, compactionMin: 100 });
    q.push('a', 'a', 90); // band 4, slot 0
    q.updatePriority('a', 95); // moves to slot 1; slot 0 is a tombstone at the heap's top
    expect(q.peek()?.id).toBe('a'); // the tombstone is popped: slot 0 is free again
    q.updatePriority('a', 10); // back into slot 0, now in band 0
    q.push('u1', 'u1', 0);
    q.push('u2', 'u2', 0);
    // After u1 the quota looks below band 0, where nothing is left: 'a' is in band 0 now.
    expect(popIds(q)).toEqual(['u1', 'u2', 'a']);
  });
});
