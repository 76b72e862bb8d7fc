import { describe, expect, it } from 'vitest';
import { makeSplit } from '../ready-queue.ts';
import { FifoQueue } from './fifo-queue.ts';

describe('FifoQueue', () => {
  it('runs splits in arrival order; a re-offered split goes to the back', () => {
    const queue = new FifoQueue();
    const [a, b, c] = [makeSplit(3), makeSplit(1), makeSplit(2)];
    for (const split of [a!, b!, c!]) queue.offer(split);
    expect(queue.take()).toBe(a);
    queue.offer(a!, 0, 'requeue');
    expect([queue.take(), queue.take(), queue.take(), queue.take()]).toEqual([b, c, a, null]);
  });

  it('removes at the head, middle and tail, once', () => {
    const queue = new FifoQueue();
    const splits = [1, 2, 3, 4, 5].map((id) => makeSplit(id));
    for (const split of splits) queue.offer(split);
    expect(queue.remove(splits[0]!)).toBe(true);
    expect(queue.remove(splits[2]!)).toBe(true);
    expect(queue.remove(splits[4]!)).toBe(true);
    expect(queue.remove(splits[2]!)).toBe(false);
    expect(queue.size).toBe(2);
    queue.offer(splits[2]!);
    expect(queue.drain().map((split) => split.id)).toEqual([2, 4, 3]);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeNull();
  });

  it('rejects a split that is already queued', () => {
    const queue = new FifoQueue();
    const split = makeSplit(1);
    queue.offer(split);
    expect(() => queue.offer(split)).toThrow(expect.objectContaining({ code: 'DUPLICATE_ID' }));
  });

  it('reports depth, charged time and selections', () => {
    const queue = new FifoQueue();
    queue.offer(makeSplit(1));
    queue.offer(makeSplit(2));
    const split = queue.take()!;
    queue.charge(split, 5_000_000, 0);
    expect(queue.levels()).toEqual([
      { level: 0, label: 'fifo', depth: 1, scheduledNanos: 5_000_000, selections: 1 },
    ]);
  });
});
