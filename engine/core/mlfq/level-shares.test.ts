import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeGroup, makeSplit } from '../ready-queue.ts';
import { LEVEL_COUNT } from './mlfq-config.ts';
import { MultilevelSplitQueue } from './multilevel-split-queue.ts';
import { roundedQuotient } from './priced-priority.ts';

const QUANTUM = 10_000_000; // 10 ms: every threshold is a whole number of quanta
const SPLITS_PER_LEVEL = 3; // a level never empties while one of its splits runs

interface Shares {
  selections: number[];
  levelTime: number[];
}

/**
 * Keeps every level busy: each level holds splits of groups whose scheduled time puts them on
 * that level; a group that crosses into the next level is replaced by a fresh one at the level
 * it left (a new task arriving). Every take is charged one fixed quantum.
 */
function measureShares(m: number, takes: number): Shares {
  const queue = new MultilevelSplitQueue({ levelTimeMultiplier: m });
  const thresholds = queue.levelThresholdsNanos;
  let nextId = 0;
  const spawn = (level: number): void => {
    const group = makeGroup(`g${nextId}`);
    group.scheduledNanos = thresholds[level]!;
    queue.offer(makeSplit(nextId++, group), 0, 'moved');
  };
  const cycle = (): void => {
    const split = queue.take()!;
    const level = split.priority.level;
    split.group.scheduledNanos += QUANTUM;
    queue.charge(split, QUANTUM);
    if (split.group.priority.level === level) queue.offer(split, 0, 'requeue');
    else spawn(level);
  };
  // Level 0 runs alone first so the other levels join against a non-zero target, as in a live
  // worker (a level joining an all-zero queue would start with no expected time at all).
  for (let k = 0; k < SPLITS_PER_LEVEL; k++) spawn(0);
  for (let i = 0; i < 10; i++) cycle();
  for (let level = 1; level < LEVEL_COUNT; level++) {
    for (let k = 0; k < SPLITS_PER_LEVEL; k++) spawn(level);
  }
  const before = queue.levels();
  for (let i = 0; i < takes; i++) cycle();
  const after = queue.levels();
  return {
    selections: after.map((row, level) => row.selections - before[level]!.selections),
    levelTime: after.map((row, level) => row.scheduledNanos - before[level]!.scheduledNanos),
  };
}

describe('level shares with every level busy', () => {
  it.each([2, 3])('give each level m × the next level’s time for m = %d', (m) => {
    const shares = measureShares(m, 80_000);
    for (let level = 0; level + 1 < LEVEL_COUNT; level++) {
      const bySelections = shares.selections[level]! / shares.selections[level + 1]!;
      const byTime = shares.levelTime[level]! / shares.levelTime[level + 1]!;
      expect(Math.abs(bySelections - m) / m).toBeLessThan(0.1);
      expect(Math.abs(byTime - m) / m).toBeLessThan(0.1);
    }
  });

  it('starved level 4 still runs when levels 0–3 are busy', () => {
    const shares = measureShares(2, 5_000);
    expect(shares.selections[4]).toBeGreaterThan(0);
  });
});

describe('roundedQuotient', () => {
  it('equals Math.round(t / m) for any time and multiplier', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 2 ** 53 - 1 }), fc.nat({ max: 10_000_000_000 })),
        fc.double({ min: 1.01, max: 100, noNaN: true }),
        (t, m) => roundedQuotient(t, m, 1 / m) === Math.round(t / m),
      ),
      { numRuns: 20_000 },
    );
  });

  it('rounds exact halves as the division does', () => {
    const cases: [number, number][] = [
      [5, 2],
      [7, 2],
      [3, 1.5],
      [2 ** 52 + 1, 2],
      [1_000_000_001, 2],
      [2 ** 53 - 1, 2],
    ];
    for (const [t, m] of cases) expect(roundedQuotient(t, m, 1 / m)).toBe(Math.round(t / m));
  });
});
