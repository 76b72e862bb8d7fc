import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeSplit, type ReadySplit } from '../ready-queue.ts';
import { PriorityPolicy } from './priority-policy.ts';
import { QueueFullError } from './queue-full-error.ts';

const S = 1_000_000_000;

function split(id: number, basePriority: number): ReadySplit {
  return makeSplit(id, undefined, { basePriority });
}

describe('PriorityPolicy', () => {
  it('takes the most urgent split first and equal priorities in offer order', () => {
    const policy = new PriorityPolicy();
    const splits = [split(1, 50), split(2, 10), split(3, 50), split(4, 10)];
    for (const s of splits) policy.offer(s, 0, 'new');
    expect(policy.size).toBe(4);
    const order = [];
    for (let s = policy.take(0); s !== null; s = policy.take(0)) order.push(s.id);
    expect(order).toEqual([2, 4, 1, 3]);
    expect(policy.take(0)).toBeNull();
  });

  it('reports one row per band with depth, selections and scheduled time', () => {
    const policy = new PriorityPolicy();
    const [a, b, c] = [split(1, 5), split(2, 19), split(3, 100)];
    for (const s of [a!, b!, c!]) policy.offer(s, 0);
    const taken = policy.take(0)!;
    policy.charge(taken, 3 * S, 3 * S);
    expect(policy.levels()).toEqual([
      { level: 0, label: 'p0-19', depth: 1, scheduledNanos: 3 * S, selections: 1, agingBoosts: 0 },
      { level: 1, label: 'p20-39', depth: 0, scheduledNanos: 0, selections: 0, agingBoosts: 0 },
      { level: 2, label: 'p40-59', depth: 0, scheduledNanos: 0, selections: 0, agingBoosts: 0 },
      { level: 3, label: 'p60-79', depth: 0, scheduledNanos: 0, selections: 0, agingBoosts: 0 },
      { level: 4, label: 'p80-100', depth: 1, scheduledNanos: 0, selections: 0, agingBoosts: 0 },
    ]);
  });

  it('counts each aging re-key to a more urgent priority in the band of the split', () => {
    const policy = new PriorityPolicy({
      aging: true,
      agingAfterNanos: 10 * S,
      agingStepNanos: 5 * S,
      agingCap: 3,
    });
    const [a, b, c] = [split(1, 90), split(2, 85), split(3, 30)];
    policy.offer(a!, 0);
    policy.offer(b!, 0);
    policy.offer(c!, 12 * S);
    const boosts = () => policy.levels().map((r) => r.agingBoosts);
    policy.tick(10 * S);
    expect(boosts()).toEqual([0, 0, 0, 0, 0]);
    // One step past agingAfter: a and b (band p80-100) each get their first boost.
    policy.tick(15 * S);
    expect(boosts()).toEqual([0, 0, 0, 0, 2]);
    // A tick that changes nothing boosts nothing; the next step boosts a, b and (from 12 s) not c.
    policy.tick(16 * S);
    expect(boosts()).toEqual([0, 0, 0, 0, 2]);
    policy.tick(20 * S);
    expect(boosts()).toEqual([0, 0, 0, 0, 4]);
    policy.tick(27 * S);
    expect(boosts()).toEqual([0, 1, 0, 0, 6]);
    // Past the cap nothing moves; a split that leaves keeps what it was counted.
    policy.tick(60 * S);
    expect(boosts()).toEqual([0, 2, 0, 0, 6]);
    expect(policy.take(60 * S)).toBe(c);
    // Aging turned off re-keys back to the base priorities: that is no boost.
    policy.configure({ aging: false });
    expect(boosts()).toEqual([0, 2, 0, 0, 6]);
  });

  it('remove and reprioritize keep the band depths right', () => {
    const policy = new PriorityPolicy();
    const [a, b] = [split(1, 90), split(2, 90)];
    policy.offer(a!, 0);
    policy.offer(b!, 0);
    expect(policy.reprioritize(a!, 10)).toBe(true);
    expect(a!.basePriority).toBe(10);
    expect(policy.remove(b!)).toBe(true);
    expect(policy.remove(b!)).toBe(false);
    expect(policy.levels().map((r) => r.depth)).toEqual([1, 0, 0, 0, 0]);
    expect(policy.take(0)).toBe(a);
    expect(policy.reprioritize(a!, 20)).toBe(false);
  });

  it('a full queue refuses the offer with QueueFullError and counts it', () => {
    const policy = new PriorityPolicy({ maxQueued: 1 });
    policy.offer(split(1, 1), 0);
    expect(() => policy.offer(split(2, 1), 0)).toThrow(QueueFullError);
    expect(policy.rejected).toBe(1);
    expect(policy.size).toBe(1);
  });

  it('drain hands every split over, most urgent first, into another queue without loss', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 50 }), (prios) => {
        const from = new PriorityPolicy({ aging: false });
        prios.forEach((p, i) => from.offer(split(i, p), 0));
        const drained = from.drain();
        expect(from.size).toBe(0);
        expect(from.levels().every((r) => r.depth === 0)).toBe(true);
        const expected = prios
          .map((p, i) => [p, i] as const)
          .sort((x, y) => x[0] - y[0] || x[1] - y[1])
          .map(([, i]) => i);
        expect(drained.map((s) => s.id)).toEqual(expected);
        const to = new PriorityPolicy({ aging: false });
        for (const s of drained) to.offer(s, 0, 'moved');
        expect(to.drain().map((s) => s.id)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('aging lets a background split through while urgent work keeps arriving', () => {
    // One 100-priority split, and an urgent 20-priority split offered and taken every second.
    const policy = new PriorityPolicy({
      agingAfterNanos: 10 * S,
      agingStepNanos: S,
      agingCap: 100,
    });
    const background = split(0, 100);
    policy.offer(background, 0, 'new');
    let takenAt = -1;
    for (let t = 1; t <= 200 && takenAt < 0; t++) {
      policy.offer(split(t, 20), t * S, 'new');
      policy.tick(t * S);
      if (policy.take(t * S) === background) takenAt = t;
    }
    // Background reaches effective 20 at wait 10 s + 80 steps = 90 s, and leads as the older one.
    expect(takenAt).toBe(90);
  });
});
