import { describe, expect, it } from 'vitest';
import { agingBoost, effectivePriority, type AgingKnobs } from './aging.ts';
import { PriorityPolicy } from './priority-policy.ts';
import { PriorityTaskQueue } from './priority-task-queue.ts';
import { makeSplit } from '../ready-queue.ts';

const S = 1_000_000_000;
const knobs: AgingKnobs = {
  aging: true,
  agingAfterNanos: 60 * S,
  agingStepNanos: 30 * S,
  agingCap: 20,
};

describe('aging boost at its boundaries (defaults: after 60 s, step 30 s, cap 20)', () => {
  it.each([
    ['no wait', 0, 0],
    ['wait = agingAfter', 60 * S, 0],
    ['one ns short of one step', 90 * S - 1, 0],
    ['agingAfter + one step', 90 * S, 1],
    ['agingAfter + two steps', 120 * S, 2],
    ['one ns short of the cap', 60 * S + 20 * 30 * S - 1, 19],
    ['exactly at the cap', 60 * S + 20 * 30 * S, 20],
    ['far past the cap', 3_600 * S, 20],
    ['a clock that went backwards', -5 * S, 0],
  ])('%s → boost %i', (_name, wait, boost) => {
    expect(agingBoost(wait, knobs)).toBe(boost);
  });

  it('never takes the effective priority below 0', () => {
    expect(effectivePriority(5, 0, 3_600 * S, knobs)).toBe(0);
    expect(effectivePriority(0, 0, 3_600 * S, knobs)).toBe(0);
    expect(effectivePriority(50, 0, 3_600 * S, knobs)).toBe(30);
  });

  it('is off when aging is off', () => {
    expect(agingBoost(3_600 * S, { ...knobs, aging: false })).toBe(0);
  });
});

describe('aging in the queue', () => {
  it('tick(now) lets a long-waiting task overtake fresher, more urgent ones', () => {
    const q = new PriorityTaskQueue<string>();
    q.push('old', 'old', 60, 0);
    q.tick(60 * S);
    expect(q.peek()?.effectivePriority).toBe(60); // wait = agingAfter: no boost yet
    q.tick(90 * S);
    expect(q.peek()?.effectivePriority).toBe(59);
    q.tick(60 * S + 16 * 30 * S); // boost 16 → 44
    q.push('fresh', 'fresh', 45); // aged as of the last tick: no wait, no boost
    expect(q.peek()).toMatchObject({ id: 'old', priority: 60, effectivePriority: 44 });
    expect(q.pop()?.id).toBe('old');
    expect(q.pop()?.id).toBe('fresh');
  });

  it('an aged task leads fresh tasks of the same effective priority (it arrived first)', () => {
    const q = new PriorityTaskQueue<string>();
    q.push('old', 'old', 50, 0);
    q.tick(120 * S); // old → 48
    q.push('new', 'new', 48);
    expect([q.pop()?.id, q.pop()?.id]).toEqual(['old', 'new']);
  });

  it('turning aging off live puts every task back at its base priority', () => {
    const q = new PriorityTaskQueue<string>();
    q.push('a', 'a', 50, 0);
    q.push('b', 'b', 40, 600 * S);
    q.tick(660 * S); // a waited 660 s → boost 20 → 30; b waited 60 s → 40
    expect(q.peek()?.id).toBe('a');
    q.configure({ aging: false });
    expect(q.peek()).toMatchObject({ id: 'b', effectivePriority: 40 });
    q.configure({ aging: true, agingCap: 5 }); // a → 45 > 40: b still first
    expect(q.pop()?.id).toBe('b');
  });
});

describe('a retried task restarts its aging clock', () => {
  it("PriorityPolicy: offer with reason 'retry' drops the boost to 0; 'requeue' keeps it", () => {
    const policy = new PriorityPolicy();
    const retried = makeSplit(1, undefined, { basePriority: 50 });
    const requeued = makeSplit(2, undefined, { basePriority: 50 });
    policy.offer(retried, 0, 'new');
    policy.offer(requeued, 0, 'new');
    policy.tick(660 * S); // both aged to 30
    expect(policy.take(660 * S)).toBe(retried);
    expect(policy.take(660 * S)).toBe(requeued);
    policy.offer(retried, 700 * S, 'retry');
    policy.offer(requeued, 700 * S, 'requeue');
    expect(retried.readySince).toBe(700 * S);
    expect(requeued.readySince).toBe(0);
    const fresh = makeSplit(3, undefined, { basePriority: 49 });
    policy.offer(fresh, 700 * S, 'new');
    policy.tick(700 * S);
    // requeued keeps its 700 s wait (→ 30); fresh is at 49; retried is back at its base 50.
    expect(policy.drain().map((s) => s.id)).toEqual([2, 3, 1]);
  });
});
