// Model check (docs/design.md §3.2): under random push / pop / remove / updatePriority / bulkPush / tick
// / compact sequences the queue behaves exactly like a sorted array of its live tasks, ordered by
// (effective priority, arrival), and the heap never holds more tombstones than compaction allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectivePriority, type AgingKnobs } from './aging.ts';
import { bandOf } from '../../../shared/lib/priority-bands.ts';
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
  | { kind: 'tick'; advanceNanos: number }
  | { kind: 'compact' };

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
  { arbitrary: fc.record({ kind: fc.constant('compact' as const) }), weight: 1 },
);

class Model {
  tasks: ModelTask[] = [];
  sequence = 0;
  now = 0;
  streakBand = -1;
  streak = 0;
  constructor(
    private readonly knobs: AgingKnobs,
    private readonly quotaBurst: number,
  ) {}

  /** The spec, literally: the head, unless `quotaBurst` pops in a row came from its band. */
  next(): { task: ModelTask; byQuota: boolean } | undefined {
    const head = this.sorted()[0];
    if (head === undefined) return undefined;
    const band = bandOf(this.effective(head));
    if (this.quotaBurst > 0 && band === this.streakBand && this.streak >= this.quotaBurst) {
      const lower = this.tasks
        .filter((t) => bandOf(this.effective(t)) > band)
        .sort((a, b) => a.sequence - b.sequence)[0];
      if (lower !== undefined) return { task: lower, byQuota: true };
    }
    return { task: head, byQuota: false };
  }

  taken(task: ModelTask, byQuota: boolean): void {
    this.tasks = this.tasks.filter((t) => t !== task);
    if (this.quotaBurst === 0) return;
    const band = bandOf(this.effective(task));
    if (byQuota) this.streak = 0;
    else if (band === this.streakBand) this.streak++;
    else [this.streakBand, this.streak] = [band, 1];
  }

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

/** `sequenceLimit` low enough that sequences are renumbered many times within a run. */
function check(knobs: AgingKnobs, sequenceLimit?: number): void {
  fc.assert(
    fc.property(
      fc.array(command, { maxLength: 120 }),
      fc.integer({ min: 0, max: 6 }),
      fc.constantFrom(0, 0, 1, 2, 3),
      (commands, compactionMin, quotaBurst) => {
        const queue = new PriorityTaskQueue<string>(
          { ...knobs, compactionMin, quotaBurst },
          sequenceLimit,
        );
        const model = new Model(knobs, quotaBurst);
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
      const next = model.next();
      expect(queue.peek()?.id).toBe(next?.task.id);
      const got = queue.pop();
      if (next === undefined) {
        expect(got).toBeNull();
        return;
      }
      const { task, byQuota } = next;
      expect(got).toEqual({
        id: task.id,
        item: `t${task.id}`,
        priority: task.base,
        effectivePriority: model.effective(task),
        readySince: task.readySince,
      });
      model.taken(task, byQuota);
      return;
    }
    case 'remove':
      expect(queue.remove(c.id)).toBe(model.has(c.id));
      model.tasks = model.tasks.filter((t) => t.id !== c.id);
      return;
    case 'update': {
      expect(queue.updatePriority(c.id, c.priority)).toBe(model.has(c.id));
      const task = model.tasks.find((t) => t.id === c.id);
      // Seed 001's update_priority: a new sequence, behind those waiting at the new priority.
      if (task !== undefined) {
        task.base = c.priority;
        task.sequence = model.sequence++;
      }
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
    case 'compact':
      queue.compact();
      expect(queue.heapLength).toBe(model.tasks.length);
      return;
  }
}

describe('PriorityTaskQueue matches a sorted-array model', () => {
  it('without aging, under random push/pop/remove/updatePriority/bulkPush sequences, quota on or off', () => {
    check({ aging: false, agingAfterNanos: 0, agingStepNanos: 1, agingCap: 0 });
  });

  it('with aging re-evaluated by tick(now), quota on or off', () => {
    check({ aging: true, agingAfterNanos: 60 * SECOND, agingStepNanos: 30 * SECOND, agingCap: 20 });
  });

  it('with sequences renumbered every few dozen arrivals (the order survives renumbering)', () => {
    check(
      { aging: true, agingAfterNanos: 60 * SECOND, agingStepNanos: 30 * SECOND, agingCap: 20 },
      48,
    );
  });
});
