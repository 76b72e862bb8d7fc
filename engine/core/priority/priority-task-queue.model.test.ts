// Model check (DESIGN.md §3.2): under random push / pop / remove / updatePriority / bulkPush / tick
// sequences the queue behaves exactly like a sorted array of its live tasks, ordered by
// (effective priority, arrival), and the heap never holds more tombstones than compaction allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectivePriority, type AgingKnobs } from './aging.ts';
import { PriorityTaskQueue } from './priority-task-queue.ts';

interface ModelTask {
  id: number;
  base: number;
  sequence: number;
  readySince: number;
}

type Command =
  | { kind: 'push'; id: number; priority: number }
  | { kind: 'pop' }
  | { kind: 'remove'; id: number }
  | { kind: 'update'; id: number; priority: number }
  | { kind: 'bulk'; items: { id: number; priority: number }[] }
  | { kind: 'tick'; advanceNanos: number };

const SECOND = 1_000_000_000;
const id = fc.integer({ min: 0, max: 40 });
const priority = fc.integer({ min: 0, max: 100 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('push' as const), id, priority }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('pop' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), id }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('update' as const), id, priority }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('bulk' as const),
      items: fc.uniqueArray(fc.record({ id, priority }), { selector: (x) => x.id, maxLength: 8 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      advanceNanos: fc.integer({ min: 0, max: 200 * SECOND }),
    }),
    weight: 1,
  },
);

class Model {
  tasks: ModelTask[] = [];
  sequence = 0;
  now = 0;
  constructor(private readonly knobs: AgingKnobs) {}

  effective(t: ModelTask): number {
    return effectivePriority(t.base, t.readySince, this.now, this.knobs);
  }
  sorted(): ModelTask[] {
    return [...this.tasks].sort(
      (a, b) => this.effective(a) - this.effective(b) || a.sequence - b.sequence,
    );
  }
  has(taskId: number): boolean {
    return this.tasks.some((t) => t.id === taskId);
  }
}

function check(knobs: AgingKnobs): void {
  fc.assert(
    fc.property(
      fc.array(command, { maxLength: 120 }),
      fc.integer({ min: 0, max: 6 }),
      (commands, compactionMin) => {
        const queue = new PriorityTaskQueue<string>({ ...knobs, compactionMin });
        const model = new Model(knobs);
        for (const c of commands) {
          apply(queue, model, c);
          expect(queue.size).toBe(model.tasks.length);
          // Tombstones in the heap never exceed max(compactionMin, live).
          expect(queue.heapLength - queue.size).toBeLessThanOrEqual(
            Math.max(compactionMin, queue.size),
          );
        }
        const expected = model.sorted().map((t) => [t.id, t.base]);
        expect(queue.drain().map((t) => [t.id, t.priority])).toEqual(expected);
        expect(queue.size).toBe(0);
      },
    ),
    { numRuns: 300 },
  );
}

function apply(queue: PriorityTaskQueue<string>, model: Model, c: Command): void {
  switch (c.kind) {
    case 'push':
      if (model.has(c.id)) {
        expect(() => queue.push(c.id, `t${c.id}`, c.priority)).toThrow(/already queued/);
      } else {
        queue.push(c.id, `t${c.id}`, c.priority);
        model.tasks.push({
          id: c.id,
          base: c.priority,
          sequence: model.sequence++,
          readySince: model.now,
        });
      }
      return;
    case 'pop': {
      const head = model.sorted()[0];
      const got = queue.pop();
      if (head === undefined) {
        expect(got).toBeNull();
        return;
      }
      expect(got).toEqual({
        id: head.id,
        item: `t${head.id}`,
        priority: head.base,
        effectivePriority: model.effective(head),
        readySince: head.readySince,
      });
      model.tasks = model.tasks.filter((t) => t !== head);
      return;
    }
    case 'remove':
      expect(queue.remove(c.id)).toBe(model.has(c.id));
      model.tasks = model.tasks.filter((t) => t.id !== c.id);
      return;
    case 'update': {
      expect(queue.updatePriority(c.id, c.priority)).toBe(model.has(c.id));
      const task = model.tasks.find((t) => t.id === c.id);
      if (task !== undefined) task.base = c.priority;
      return;
    }
    case 'bulk':
      if (c.items.some((item) => model.has(item.id))) {
        expect(() => queue.bulkPush(c.items.map((i) => ({ ...i, item: `t${i.id}` })))).toThrow(
          /already queued/,
        );
        return;
      }
      queue.bulkPush(c.items.map((i) => ({ ...i, item: `t${i.id}` })));
      for (const item of c.items) {
        model.tasks.push({
          id: item.id,
          base: item.priority,
          sequence: model.sequence++,
          readySince: model.now,
        });
      }
      return;
    case 'tick':
      model.now += c.advanceNanos;
      queue.tick(model.now);
      return;
  }
}

describe('PriorityTaskQueue matches a sorted-array model', () => {
  it('without aging, under random push/pop/remove/updatePriority/bulkPush sequences', () => {
    check({ aging: false, agingAfterNanos: 0, agingStepNanos: 1, agingCap: 0 });
  });

  it('with aging re-evaluated by tick(now)', () => {
    check({ aging: true, agingAfterNanos: 60 * SECOND, agingStepNanos: 30 * SECOND, agingCap: 20 });
  });
});
