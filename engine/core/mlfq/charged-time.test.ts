// Charged level time (what quanta contributed) is kept apart from the queue's level clock (which
// also jumps when an empty level is caught up): shares are taken from the charged time.
import { describe, expect, it } from 'vitest';
import { makeGroup, makeSplit } from '../ready-queue.ts';
import { MultilevelSplitQueue } from './multilevel-split-queue.ts';

const S = 1_000_000_000;

const charged = (q: MultilevelSplitQueue) => q.levels().map((l) => l.chargedNanos);
const clock = (q: MultilevelSplitQueue) => q.levels().map((l) => l.scheduledNanos);

describe('charged level time', () => {
  it('a quantum crossing thresholds is charged across the levels it passed, after the cap', () => {
    const queue = new MultilevelSplitQueue();
    queue.updatePriority({ level: 0, levelPriority: 0 }, 600 * S, 600 * S);
    expect(charged(queue)).toEqual([1 * S, 9 * S, 20 * S, 0, 0]);
  });

  it('a level caught up on offer keeps its charged time; only its level clock jumps', () => {
    const queue = new MultilevelSplitQueue();
    const g0 = makeGroup('g0');
    const s0 = makeSplit(0, g0);
    queue.offer(s0, 0, 'new');
    expect(queue.take()).toBe(s0);
    g0.scheduledNanos += 500e6;
    queue.charge(s0, 500e6);
    // A group already on level 1 joins the empty level 1: its clock is set to target / m.
    const g1 = makeGroup('g1');
    g1.scheduledNanos = 2 * S;
    queue.offer(makeSplit(1, g1), 0, 'moved');
    expect(clock(queue)[1]).toBe(250e6);
    expect(charged(queue)).toEqual([500e6, 0, 0, 0, 0]);
    expect(clock(queue)[0]).toBe(500e6);
  });

  it('sums to the capped quanta whatever the levels did', () => {
    const queue = new MultilevelSplitQueue({ levelContributionCapNanos: 2 * S });
    const group = makeGroup('g');
    const split = makeSplit(0, group);
    let total = 0;
    for (const q of [300e6, 3 * S, 700e6, 5 * S]) {
      queue.offer(split, 0, 'requeue');
      queue.take();
      group.scheduledNanos += q;
      queue.charge(split, q);
      total += Math.min(q, 2 * S);
    }
    expect(charged(queue).reduce((a, b) => a + b, 0)).toBe(total);
  });
});
