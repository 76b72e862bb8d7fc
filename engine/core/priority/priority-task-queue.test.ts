import { describe, expect, it } from 'vitest';
import { PriorityTaskQueue, type QueuedTask } from './priority-task-queue.ts';
import { QueueFullError } from './queue-full-error.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';

function popAll<T>(queue: PriorityTaskQueue<T>): QueuedTask<T>[] {
  const out: QueuedTask<T>[] = [];
  for (let t = queue.pop(); t !== null; t = queue.pop()) out.push(t);
  return out;
}

describe('PriorityTaskQueue ordering', () => {
  it('pops the smallest priority first and equal priorities in arrival order', () => {
    const q = new PriorityTaskQueue<string>();
    q.push('a', 'A', 50);
    q.push('b', 'B', 10);
    q.push('c', 'C', 50);
    q.push('d', 'D', 10);
    q.push('e', 'E', 50);
    expect(q.peek()?.id).toBe('b');
    expect(popAll(q).map((t) => t.item)).toEqual(['B', 'D', 'A', 'C', 'E']);
    expect(q.pop()).toBeNull();
    expect(q.peek()).toBeNull();
  });

  it('update_priority (seed 001): a re-prioritised task goes behind those already waiting at its new priority', () => {
    const q = new PriorityTaskQueue<number>({ aging: false });
    q.push(1, 1, 30);
    q.push(2, 2, 20);
    q.push(3, 3, 20);
    q.updatePriority(1, 20); // arrived first, but re-prioritised after 2 and 3 were waiting at 20
    q.push(4, 4, 20);
    q.updatePriority(2, 20); // the same priority again still goes to the back
    expect(popAll(q).map((t) => t.id)).toEqual([3, 1, 4, 2]);
  });

  it("an aging re-key keeps the task's place among its equals", () => {
    const q = new PriorityTaskQueue<number>({
      agingAfterNanos: 0,
      agingStepNanos: 10,
      agingCap: 5,
    });
    q.tick(0);
    q.push(1, 1, 25, 0); // ages to 20 by t = 50
    q.tick(50);
    q.push(2, 2, 20, 50);
    q.push(3, 3, 20, 50);
    // 1 arrived first: re-keyed to 20 by aging, it keeps its sequence and leads the 20s.
    expect(popAll(q).map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it('never returns a removed or superseded entry, and returns every live task once', () => {
    const q = new PriorityTaskQueue<number>({ compactionMin: 1_000 });
    for (let i = 0; i < 100; i++) q.push(i, i, i % 101);
    for (let i = 0; i < 100; i += 3) expect(q.remove(i)).toBe(true);
    for (let i = 1; i < 100; i += 3) q.updatePriority(i, 100 - (i % 101));
    expect(q.heapLength).toBeGreaterThan(q.size); // tombstones are still in the heap
    const popped = popAll(q);
    expect(popped.map((t) => Number(t.id)).filter((id) => id % 3 === 0)).toEqual([]);
    expect(new Set(popped.map((t) => t.id)).size).toBe(popped.length);
    expect(popped).toHaveLength(66);
    const updated = popped.find((t) => t.id === 1);
    expect(updated?.priority).toBe(99);
  });

  it('bulkPush queues all or nothing and keeps FIFO among equals', () => {
    const q = new PriorityTaskQueue<string>();
    q.push('x', 'X', 5);
    const err = schedLabErrorOf(() =>
      q.bulkPush([
        { id: 'y', item: 'Y', priority: 5 },
        { id: 'x', item: 'X2', priority: 1 },
      ]),
    );
    expect(err.code).toBe('DUPLICATE_ID');
    expect(q.size).toBe(1);
    q.bulkPush([
      { id: 'y', item: 'Y', priority: 5 },
      { id: 'z', item: 'Z', priority: 0 },
      { id: 'w', item: 'W', priority: 5 },
    ]);
    expect(popAll(q).map((t) => t.id)).toEqual(['z', 'x', 'y', 'w']);
  });

  it('remove and updatePriority report an id that is not queued', () => {
    const q = new PriorityTaskQueue<number>();
    q.push(1, 1, 1);
    expect(q.remove(2)).toBe(false);
    expect(q.updatePriority(2, 3)).toBe(false);
    q.pop();
    expect(q.remove(1)).toBe(false);
    expect(q.has(1)).toBe(false);
  });
});

describe('PriorityTaskQueue compaction', () => {
  it('compact() keeps the order and drops the heap length to the live count', () => {
    const q = new PriorityTaskQueue<number>({ compactionMin: 10_000 });
    for (let i = 0; i < 500; i++) q.push(i, i, (i * 37) % 101);
    for (let i = 0; i < 500; i += 2) q.remove(i);
    for (let i = 1; i < 500; i += 4) q.updatePriority(i, 0);
    expect(q.heapLength).toBeGreaterThan(600); // 250 removed + ~125 re-keyed, all tombstones
    const before = q.drain().map((t) => t.id);
    for (let i = 0; i < 500; i++) q.push(i, i, (i * 37) % 101);
    for (let i = 0; i < 500; i += 2) q.remove(i);
    for (let i = 1; i < 500; i += 4) q.updatePriority(i, 0);
    q.compact();
    expect(q.heapLength).toBe(250);
    expect(q.size).toBe(250);
    expect(popAll(q).map((t) => t.id)).toEqual(before);
  });

  it('compacts automatically once tombstones exceed max(compactionMin, live)', () => {
    const q = new PriorityTaskQueue<number>({ compactionMin: 4 });
    for (let i = 0; i < 10; i++) q.push(i, i, 50 - i);
    for (let i = 0; i < 5; i++) q.remove(i); // 5 dead, 5 live: not above max(4, 5)
    expect(q.heapLength).toBe(10);
    expect(q.compactions).toBe(0);
    q.remove(5); // 6 dead > max(4, 4)
    expect(q.compactions).toBe(1);
    expect(q.heapLength).toBe(4);
    expect(popAll(q).map((t) => t.id)).toEqual([9, 8, 7, 6]);
  });

  it('re-keying keeps the heap bounded under a long stream of updates', () => {
    const q = new PriorityTaskQueue<number>({ compactionMin: 16 });
    for (let i = 0; i < 32; i++) q.push(i, i, 50);
    for (let round = 0; round < 1_000; round++) q.updatePriority(round % 32, round % 101);
    expect(q.heapLength).toBeLessThanOrEqual(32 + 32 + 1);
    expect(q.size).toBe(32);
  });
});

describe('PriorityTaskQueue bounds and errors', () => {
  it('rejects a push beyond maxQueued with the named limit, counts it, and loses nothing', () => {
    const q = new PriorityTaskQueue<number>({ maxQueued: 3 });
    q.push(1, 1, 1);
    q.push(2, 2, 2);
    q.push(3, 3, 3);
    const err = schedLabErrorOf(() => q.push(4, 4, 0));
    expect(err).toBeInstanceOf(QueueFullError);
    expect(err.code).toBe('QUEUE_FULL');
    expect(err.field).toBe('maxQueued');
    expect(err.message).toMatch(/maxQueued.*3/);
    expect(q.rejected).toBe(1);
    expect(schedLabErrorOf(() => q.bulkPush([{ id: 5, item: 5, priority: 0 }])).code).toBe(
      'QUEUE_FULL',
    );
    expect(q.rejected).toBe(2);
    expect(q.size).toBe(3);
    expect(q.pop()?.id).toBe(1);
    q.push(4, 4, 0);
    expect(popAll(q).map((t) => t.id)).toEqual([4, 2, 3]);
  });

  it('a duplicate id is a DUPLICATE_ID error naming the id', () => {
    const q = new PriorityTaskQueue<number>();
    q.push('job-7', 1, 1);
    const err = schedLabErrorOf(() => q.push('job-7', 2, 2));
    expect(err.code).toBe('DUPLICATE_ID');
    expect(err.field).toBe('id');
    expect(err.message).toContain('job-7');
    expect(q.size).toBe(1);
  });

  it.each([-1, 101, 1.5, Number.NaN, Infinity])(
    'priority %s is an INVALID_ARGUMENT naming priority',
    (bad) => {
      const q = new PriorityTaskQueue<number>();
      q.push(1, 1, 1);
      for (const fn of [
        () => q.push(2, 2, bad),
        () => q.updatePriority(1, bad),
        () => q.bulkPush([{ id: 3, item: 3, priority: bad }]),
      ]) {
        const err = schedLabErrorOf(fn);
        expect(err.code).toBe('INVALID_ARGUMENT');
        expect(err.field).toBe('priority');
        expect(err.message).toMatch(/^priority/);
      }
      expect(q.size).toBe(1);
    },
  );

  it('a non-finite time is an INVALID_ARGUMENT naming it', () => {
    const q = new PriorityTaskQueue<number>();
    expect(schedLabErrorOf(() => q.tick(Number.NaN)).field).toBe('now');
    expect(schedLabErrorOf(() => q.push(1, 1, 1, Infinity)).field).toBe('readySince');
  });
});
