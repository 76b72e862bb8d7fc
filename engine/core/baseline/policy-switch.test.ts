import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeGroup, makeSplit, type ReadyQueue, type ReadySplit } from '../ready-queue.ts';
import { MultilevelSplitQueue } from '../mlfq/multilevel-split-queue.ts';
import { FairQueue } from './fair-queue.ts';
import { FifoQueue } from './fifo-queue.ts';

// Thresholds scaled down so random quanta move groups across every MLFQ level.
const MS = 1_000_000;
const factories: Record<string, () => ReadyQueue> = {
  mlfq: () =>
    new MultilevelSplitQueue({
      levelThresholdsNanos: [0, 5 * MS, 20 * MS, 60 * MS, 150 * MS],
      levelContributionCapNanos: 15 * MS,
    }),
  fifo: () => new FifoQueue(),
  fair: () => new FairQueue(),
};

type Op =
  | { kind: 'offer'; group: number }
  | { kind: 'take'; quantum: number; then: 'requeue' | 'block' }
  | { kind: 'wake' }
  | { kind: 'remove'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('offer' as const), group: fc.nat(4) }),
  fc.record({
    kind: fc.constant('take' as const),
    quantum: fc.integer({ min: 0, max: 40 * MS }),
    then: fc.constantFrom('requeue' as const, 'block' as const),
  }),
  fc.record({ kind: fc.constant('wake' as const) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

function ids(splits: readonly ReadySplit[]): number[] {
  return splits.map((split) => split.id).sort((a, b) => a - b);
}

/** Applies random work to `from`, then moves everything into `to` the way the executor does. */
function switchLosesNothing(from: string, to: string, ops: Op[]): void {
  const queue = factories[from]!();
  const groups = [0, 1, 2, 3, 4].map((g) => makeGroup(`g${g}`));
  const queued = new Map<number, ReadySplit>();
  const blocked: ReadySplit[] = [];
  let nextId = 0;
  for (const op of ops) {
    if (op.kind === 'offer') {
      const split = makeSplit(nextId++, groups[op.group]!);
      queue.offer(split, 0, 'new');
      queued.set(split.id, split);
    } else if (op.kind === 'take') {
      const split = queue.take();
      if (queued.size === 0) {
        expect(split).toBeNull();
        continue;
      }
      expect(split !== null && queued.get(split.id) === split).toBe(true);
      queued.delete(split!.id);
      split!.group.scheduledNanos += op.quantum;
      queue.charge(split!, op.quantum, 0);
      if (op.then === 'block') blocked.push(split!);
      else {
        queue.offer(split!, 0, 'requeue');
        queued.set(split!.id, split!);
      }
    } else if (op.kind === 'wake') {
      const split = blocked.shift();
      if (split === undefined) continue;
      queue.offer(split, 0, 'woken');
      queued.set(split.id, split);
    } else {
      const all = [...queued.values()];
      const victim = all[op.pick % Math.max(1, all.length)];
      if (victim === undefined) continue;
      expect(queue.remove(victim)).toBe(true);
      expect(queue.remove(victim)).toBe(false);
      queued.delete(victim.id);
    }
    expect(queue.size).toBe(queued.size);
  }

  const drained = queue.drain();
  expect(ids(drained)).toEqual(ids([...queued.values()]));
  expect(queue.size).toBe(0);
  expect(queue.take()).toBeNull();

  const next = factories[to]!();
  for (const split of drained) next.offer(split, 0, 'moved');
  for (const split of blocked) next.offer(split, 0, 'woken');
  const ran: ReadySplit[] = [];
  for (let split = next.take(); split !== null; split = next.take()) {
    ran.push(split);
    split.group.scheduledNanos += MS;
    next.charge(split, MS, 0);
  }
  expect(ids(ran)).toEqual(ids([...drained, ...blocked]));
  expect(next.size).toBe(0);
}

describe('switching policy: drain() then offer into another loses and duplicates nothing', () => {
  const names = Object.keys(factories);
  for (const from of names) {
    for (const to of names) {
      it(`${from} → ${to}`, () => {
        fc.assert(
          fc.property(fc.array(opArb, { maxLength: 120 }), (ops) =>
            switchLosesNothing(from, to, ops),
          ),
          { numRuns: 150 },
        );
      });
    }
  }
});
