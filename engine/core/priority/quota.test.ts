// The quota alternative to aging (docs/design.md §3.2): after `quotaBurst` consecutive dequeues from
// the top band, the next dequeue takes the oldest entry of a lower band.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriorityTaskQueue } from './priority-task-queue.ts';

function popIds(q: PriorityTaskQueue<string>, n: number): (string | number | undefined)[] {
  const out = [];
  for (let i = 0; i < n; i++) out.push(q.pop()?.id);
  return out;
}

describe('quota', () => {
  it('lets the oldest lower-band task through after each burst from the top band', () => {
    const q = new PriorityTaskQueue<string>({ aging: false, quotaBurst: 2 });
    for (let i = 0; i < 6; i++) q.push(`u${i}`, 'urgent', 5);
    q.push('log', 'cleanup', 100); // oldest lower-band task
    q.push('thumb', 'thumbnail', 80);
    q.push('report', 'report', 50);
    expect(popIds(q, 9)).toEqual(['u0', 'u1', 'log', 'u2', 'u3', 'thumb', 'u4', 'u5', 'report']);
  });

  it('peek shows what pop will take, quota pick included', () => {
    const q = new PriorityTaskQueue<string>({ aging: false, quotaBurst: 1 });
    q.push('a', 'a', 0);
    q.push('b', 'b', 0);
    q.push('low', 'low', 90);
    expect(q.pop()?.id).toBe('a');
    expect(q.peek()?.id).toBe('low');
    expect(q.pop()?.id).toBe('low');
    expect(q.pop()?.id).toBe('b');
  });

  it('without the quota, the urgent band starves the rest until it is empty', () => {
    const q = new PriorityTaskQueue<string>({ aging: false });
    q.push('low', 'low', 90);
    for (let i = 0; i < 5; i++) q.push(`u${i}`, 'urgent', 5);
    expect(popIds(q, 6)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'low']);
  });

  it('never loses or duplicates a task, whatever the burst and the removals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 59 }), { maxLength: 20 }),
        (quotaBurst, priorities, removals) => {
          const q = new PriorityTaskQueue<string>({ aging: false, quotaBurst, compactionMin: 2 });
          priorities.forEach((p, i) => q.push(i, `t${i}`, p));
          const removed = new Set(removals.filter((i) => q.remove(i)));
          const popped: number[] = [];
          for (let t = q.pop(); t !== null; t = q.pop()) popped.push(Number(t.id));
          const expected = priorities.map((_, i) => i).filter((i) => !removed.has(i));
          expect([...popped].sort((a, b) => a - b)).toEqual(expected);
          expect(q.heapLength).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('can be switched on and off live', () => {
    const q = new PriorityTaskQueue<string>({ aging: false });
    for (let i = 0; i < 4; i++) q.push(`u${i}`, 'u', 0);
    q.push('low', 'low', 99);
    q.configure({ quotaBurst: 1 });
    expect(popIds(q, 2)).toEqual(['u0', 'low']);
    q.configure({ quotaBurst: 0 });
    expect(popIds(q, 3)).toEqual(['u1', 'u2', 'u3']);
  });
});
