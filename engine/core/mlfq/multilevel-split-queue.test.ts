import { describe, expect, it } from 'vitest';
import { makeGroup, makeSplit, type FairnessGroup, type ReadySplit } from '../ready-queue.ts';
import { MultilevelSplitQueue } from './multilevel-split-queue.ts';

const S = 1_000_000_000;

function levelTimes(queue: MultilevelSplitQueue): number[] {
  return [0, 1, 2, 3, 4].map((level) => queue.getLevelScheduledTime(level));
}

/** A group already at `level` with the given levelPriority (as if this queue had priced it). */
function groupAt(key: string, level: number, levelPriority = 0, scheduledNanos = 0): FairnessGroup {
  return { key, scheduledNanos, priority: { level, levelPriority } };
}

/** What the executor does after a quantum: add the time to the group, then charge the queue. */
function runQuantum(queue: MultilevelSplitQueue, split: ReadySplit, quantumNanos: number): void {
  split.group.scheduledNanos += quantumNanos;
  split.scheduledNanos += quantumNanos;
  queue.charge(split, quantumNanos);
}

describe('computeLevel', () => {
  const queue = new MultilevelSplitQueue();
  it.each([
    [0, 0],
    [1 * S - 1, 0],
    [1 * S, 1],
    [10 * S - 1, 1],
    [10 * S, 2],
    [60 * S - 1, 2],
    [60 * S, 3],
    [300 * S - 1, 3],
    [300 * S, 4],
    [10_000 * S, 4],
  ])('scheduled %d ns is level %d', (scheduled, level) => {
    expect(queue.computeLevel(scheduled)).toBe(level);
  });

  it('follows thresholds changed live', () => {
    const scaled = new MultilevelSplitQueue();
    scaled.setLevelThresholds([0, 50e6, 500e6, 3 * S, 15 * S]);
    expect(scaled.computeLevel(50e6 - 1)).toBe(0);
    expect(scaled.computeLevel(50e6)).toBe(1);
    expect(scaled.computeLevel(15 * S)).toBe(4);
  });
});

describe('updatePriority', () => {
  it('one 600 s quantum on a fresh queue leaves level times [1, 9, 20, 0, 0] s', () => {
    const queue = new MultilevelSplitQueue();
    const priority = queue.updatePriority({ level: 0, levelPriority: 0 }, 600 * S, 600 * S);
    expect(levelTimes(queue)).toEqual([1 * S, 9 * S, 20 * S, 0, 0]);
    // Level 4 had no minimum yet, so it is seeded with the group's time; the task time not
    // charged to the walk (600 − 30 s) is added on top.
    expect(priority).toStrictEqual({ level: 4, levelPriority: 600 * S + 570 * S });
    expect(queue.levelMinPriorities[4]).toBe(600 * S);
  });

  it('caps each quantum’s contribution to the level it leaves at 30 s', () => {
    const queue = new MultilevelSplitQueue();
    const splits = [makeSplit(1, makeGroup('a')), makeSplit(2, makeGroup('b'))];
    for (const charge of [1 * S, 9 * S, 50 * S, 240 * S]) {
      const lowerLevel = splits[0]!.group.priority.level;
      const before = queue.getLevelScheduledTime(lowerLevel);
      for (const split of splits) runQuantum(queue, split, charge);
      expect(queue.getLevelScheduledTime(lowerLevel) - before).toBe(2 * Math.min(charge, 30 * S));
      for (const split of splits) expect(split.group.priority.level).toBe(lowerLevel + 1);
    }
  });

  it('caps a long quantum within one level but still charges the task all of it', () => {
    const queue = new MultilevelSplitQueue();
    const next = queue.updatePriority({ level: 4, levelPriority: 7 }, 100 * S, 400 * S);
    expect(queue.getLevelScheduledTime(4)).toBe(30 * S);
    expect(next).toEqual({ level: 4, levelPriority: 7 + 100 * S });
  });

  it('rejects a negative quantum naming the field', () => {
    const queue = new MultilevelSplitQueue();
    expect(() => queue.updatePriority({ level: 0, levelPriority: 0 }, -1, 0)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'quantaNanos' }),
    );
  });
});

describe('offer', () => {
  it('sets an empty level’s scheduled time to level0Target / m^level, then leaves it alone', () => {
    const queue = new MultilevelSplitQueue();
    queue.updatePriority({ level: 0, levelPriority: 0 }, 8 * S, 0);
    queue.offer(makeSplit(1, groupAt('deep', 2)));
    expect(queue.getLevelScheduledTime(2)).toBe(2 * S); // 8 s / 2²
    queue.updatePriority({ level: 0, levelPriority: 0 }, 8 * S, 0); // level 0 now 16 s
    queue.offer(makeSplit(2, groupAt('deep2', 2)));
    expect(queue.getLevelScheduledTime(2)).toBe(2 * S); // not empty: no reset
  });

  it('uses the multiplier changed live', () => {
    const queue = new MultilevelSplitQueue();
    queue.updatePriority({ level: 0, levelPriority: 0 }, 8 * S, 0);
    queue.setLevelTimeMultiplier(4);
    queue.offer(makeSplit(1, groupAt('g', 1)));
    expect(queue.getLevelScheduledTime(1)).toBe(2 * S); // 8 s / 4
  });

  it('rejects a split that is already queued', () => {
    const queue = new MultilevelSplitQueue();
    const split = makeSplit(1);
    queue.offer(split);
    expect(() => queue.offer(split)).toThrow(expect.objectContaining({ code: 'DUPLICATE_ID' }));
    expect(queue.size).toBe(1);
  });

  it('prices a group arriving from another policy from its scheduled time', () => {
    const queue = new MultilevelSplitQueue();
    const group = makeGroup('moved');
    group.scheduledNanos = 20 * S;
    const split = makeSplit(1, group);
    queue.offer(split, 0, 'moved');
    expect(group.priority).toEqual({ level: 2, levelPriority: 20 * S });
    expect(split.priority).toBe(group.priority);
  });
});

describe('moved splits', () => {
  it('keep the Priority of a group this queue priced, unless its time moved it elsewhere', () => {
    const queue = new MultilevelSplitQueue();
    const group = makeGroup('task');
    const [first, second, third] = [makeSplit(1, group), makeSplit(2, group), makeSplit(3, group)];
    runQuantum(queue, first, 300e6);
    const priced = group.priority;
    queue.offer(second, 0, 'moved');
    expect(group.priority).toBe(priced);
    group.scheduledNanos += 2 * S; // ran 2 s under another policy
    queue.offer(third, 0, 'moved');
    expect(group.priority).toEqual({ level: 1, levelPriority: group.scheduledNanos });
    expect(third.priority).toBe(group.priority);
  });

  it('price a group another queue priced afresh', () => {
    const other = new MultilevelSplitQueue();
    const group = makeGroup('task');
    runQuantum(other, makeSplit(1, group), 300e6); // (0, 300 ms) in the other queue
    const queue = new MultilevelSplitQueue();
    const fresh = makeSplit(2, group);
    queue.offer(fresh, 0, 'moved');
    expect(group.priority).toEqual({ level: 0, levelPriority: 300e6 }); // seeded by its own time
    expect(queue.levelMinPriorities[0]).toBe(300e6);
  });
});

describe('take', () => {
  it('returns null when empty, and splits of one level by (levelPriority, sequence)', () => {
    const queue = new MultilevelSplitQueue();
    expect(queue.take()).toBeNull();
    const late = makeSplit(3, groupAt('a', 0, 5));
    const early = makeSplit(1, groupAt('b', 0, 5));
    const urgent = makeSplit(2, groupAt('c', 0, 1));
    for (const split of [late, early, urgent]) queue.offer(split);
    expect([queue.take(), queue.take(), queue.take()]).toEqual([urgent, early, late]);
    expect(queue.size).toBe(0);
  });

  it('picks the level with the highest target/actual ratio, ties to the lower level', () => {
    const queue = new MultilevelSplitQueue();
    const low = groupAt('low', 0);
    const high = groupAt('high', 1);
    const [a1, a2, b1] = [makeSplit(1, low), makeSplit(2, low), makeSplit(3, high)];
    for (const split of [a1, a2, b1]) queue.offer(split!);
    queue.updatePriority({ level: 0, levelPriority: 0 }, 1 * S, 0);
    queue.updatePriority({ level: 1, levelPriority: 0 }, 1 * S, 5 * S);
    // target 2 s: level 0 ratio 2/1, level 1 ratio 1/1.
    expect(queue.take()).toBe(a1);
    queue.updatePriority({ level: 0, levelPriority: 0 }, 1 * S, 0);
    // target 2 s: both ratios 1 — the tie goes to level 0.
    expect(queue.take()).toBe(a2);
    queue.offer(a2!);
    queue.updatePriority({ level: 0, levelPriority: 0 }, 1 * S, 0);
    // target 3 s: level 0 ratio 1, level 1 ratio 1.5.
    expect(queue.take()).toBe(b1);
    expect(queue.levels().map((row) => row.selections)).toEqual([2, 1, 0, 0, 0]);
  });

  it('refreshes the cached priority and re-queues a split whose group changed level', () => {
    const queue = new MultilevelSplitQueue();
    const group = makeGroup('task');
    const [stale, running] = [makeSplit(1, group), makeSplit(2, group)];
    queue.offer(stale);
    runQuantum(queue, running, 2 * S); // the group moves to level 1 while `stale` waits
    expect(stale.priority.level).toBe(0);
    expect(queue.take()).toBe(stale);
    expect(stale.priority).toBe(group.priority);
    expect(queue.levels().map((row) => row.selections)).toEqual([0, 1, 0, 0, 0]);
    expect(queue.levelMinPriorities[1]).toBe(group.priority.levelPriority);
  });

  it('lets splits of one group share one Priority', () => {
    const queue = new MultilevelSplitQueue();
    const group = makeGroup('task');
    const splits = [1, 2, 3].map((id) => makeSplit(id, group));
    for (const split of splits) queue.offer(split);
    const first = queue.take()!;
    runQuantum(queue, first, 300e6);
    expect(first.priority).toBe(group.priority);
    expect(group.priority).toEqual({ level: 0, levelPriority: 300e6 });
    queue.offer(first, 0, 'requeue');
    const second = queue.take()!;
    expect(second.id).toBe(2);
    expect(second.priority).toBe(group.priority);
    runQuantum(queue, second, 300e6);
    expect(group.priority.levelPriority).toBe(600e6); // both quanta accrue to the one Priority
  });
});

describe('woken splits', () => {
  it('are raised to their level’s minimum priority', () => {
    const queue = new MultilevelSplitQueue();
    const busy = makeGroup('busy');
    const busySplit = makeSplit(1, busy);
    runQuantum(queue, busySplit, 500e6);
    queue.offer(busySplit);
    expect(queue.take()).toBe(busySplit); // level 0's minimum is now 500 ms
    const sleeper = makeGroup('sleeper');
    const woken = makeSplit(2, sleeper);
    queue.offer(woken, 0, 'woken');
    expect(sleeper.priority).toEqual({ level: 0, levelPriority: 500e6 });
    expect(woken.priority).toBe(sleeper.priority);
  });

  it('seed an unset level minimum with the group’s time and never lower a priority', () => {
    const queue = new MultilevelSplitQueue();
    const group = groupAt('g', 2, 0, 20 * S);
    queue.offer(makeSplit(1, group), 0, 'woken');
    expect(queue.levelMinPriorities[2]).toBe(20 * S);
    expect(group.priority).toEqual({ level: 2, levelPriority: 20 * S });
    const ahead = groupAt('ahead', 2, 50 * S, 25 * S);
    queue.offer(makeSplit(2, ahead), 0, 'woken');
    expect(ahead.priority.levelPriority).toBe(50 * S);
  });
});

describe('remove, drain, levels', () => {
  it('queues a removed split anew at once, and it leaves only once', () => {
    const queue = new MultilevelSplitQueue();
    const group = makeGroup('task');
    const [a, b] = [makeSplit(1, group), makeSplit(2, group)];
    queue.offer(a);
    queue.offer(b);
    expect(queue.remove(a)).toBe(true);
    expect(queue.remove(a)).toBe(false);
    queue.offer(a); // its old entry is still a tombstone in the heap
    expect(queue.size).toBe(2);
    expect([queue.take(), queue.take(), queue.take()]).toEqual([a, b, null]);
    expect(queue.levels()[0]!.depth).toBe(0);
  });

  it('removes a queued split once and drains the rest level by level', () => {
    const queue = new MultilevelSplitQueue();
    const splits = [
      makeSplit(1, groupAt('a', 3)),
      makeSplit(2, groupAt('b', 0, 9)),
      makeSplit(3, groupAt('c', 0, 1)),
      makeSplit(4, groupAt('d', 1)),
    ];
    for (const split of splits) queue.offer(split);
    expect(queue.remove(splits[3]!)).toBe(true);
    expect(queue.remove(splits[3]!)).toBe(false);
    expect(queue.levels().map((row) => row.depth)).toEqual([2, 0, 0, 1, 0]);
    expect(queue.drain().map((split) => split.id)).toEqual([3, 2, 1]);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeNull();
  });

  it('keeps one entry per split on the split: cycling a split does not grow the heaps', () => {
    const queue = new MultilevelSplitQueue();
    const split = makeSplit(1, makeGroup('hot'));
    queue.offer(split);
    const entry = split.queueEntry;
    for (let i = 0; i < 1_000; i++) queue.offer(queue.take()!, 0, 'requeue');
    expect(split.queueEntry).toBe(entry);
    expect(queue.heapLength).toBe(1);
  });

  it('does not remove a split that another queue holds', () => {
    const [first, second] = [new MultilevelSplitQueue(), new MultilevelSplitQueue()];
    const split = makeSplit(1, makeGroup('task'));
    first.offer(split);
    expect(second.remove(split)).toBe(false);
    expect(first.size).toBe(1);
    expect(first.remove(split)).toBe(true);
    second.offer(split); // its idle entry moves to the queue that holds it now
    expect(first.remove(split)).toBe(false);
    expect(second.take()).toBe(split);
  });
});
