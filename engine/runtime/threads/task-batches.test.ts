import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriorityTaskQueue } from '../../core/priority/index.ts';
import { TaskBatches, type Batch } from './task-batches.ts';

type Op = { kind: 'push'; priority: number } | { kind: 'seal' } | { kind: 'pop' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .integer({ min: 0, max: 3 })
      .map((p) => ({ kind: 'push', priority: p * 25 }) as Op),
  },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'seal' }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'pop' }) },
);

describe('TaskBatches', () => {
  it('pops tasks in exactly the order the PRIO queue gives single tasks (priority, then arrival)', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 300 }),
        fc.integer({ min: 1, max: 8 }),
        (ops, limit) => {
          const batches = new TaskBatches<number>(new PriorityTaskQueue<Batch<number>>(), 1 << 20);
          batches.batchLimit = limit;
          const model: { priority: number; seq: number }[] = [];
          let seq = 0;
          const drainOne = (): void => {
            const popped = batches.pop() ?? [];
            expect(popped.length > 0).toBe(model.length > 0);
            model.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
            const expected = model.splice(0, popped.length).map((t) => t.seq);
            expect(popped).toEqual(expected);
            expect(popped.length).toBeLessThanOrEqual(limit);
          };
          for (const o of ops) {
            if (o.kind === 'push') {
              batches.push(seq, o.priority);
              model.push({ priority: o.priority, seq: seq++ });
            } else if (o.kind === 'seal') batches.seal();
            else drainOne();
            expect(batches.size).toBe(model.length);
          }
          while (model.length > 0) drainOne();
        },
      ),
    );
  });

  it('refuses a task beyond maxQueued and an invalid priority without queueing it', () => {
    const batches = new TaskBatches<number>(new PriorityTaskQueue<Batch<number>>(), 2);
    expect(() => batches.push(1, 101)).toThrow(expect.objectContaining({ field: 'priority' }));
    batches.push(1, 50);
    batches.push(2, 50);
    expect(() => batches.push(3, 50)).toThrow(expect.objectContaining({ code: 'QUEUE_FULL' }));
    expect(batches.rejected).toBe(1);
    expect(batches.pop()).toEqual([1, 2]);
  });
});
