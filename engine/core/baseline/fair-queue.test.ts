import { describe, expect, it } from 'vitest';
import { makeGroup, makeSplit, type ReadySplit } from '../ready-queue.ts';
import { FairQueue } from './fair-queue.ts';

const MS = 1_000_000;

function runQuantum(queue: FairQueue, split: ReadySplit, nanos: number): void {
  split.group.scheduledNanos += nanos;
  queue.charge(split, nanos, 0);
}

describe('FairQueue', () => {
  it('picks the least-served group, ties by sequence, siblings in turn', () => {
    const queue = new FairQueue();
    const [a, b] = [makeGroup('a'), makeGroup('b')];
    const [a1, b1, a2, b2] = [makeSplit(1, a), makeSplit(2, b), makeSplit(3, a), makeSplit(4, b)];
    for (const split of [a1, b1, a2, b2]) queue.offer(split!);
    expect(queue.take()).toBe(a1); // both at 0: lower sequence
    runQuantum(queue, a1!, 5 * MS);
    queue.offer(a1!, 0, 'requeue');
    expect(queue.take()).toBe(b1); // b has 0 ms, a 5 ms
    runQuantum(queue, b1!, 2 * MS);
    expect(queue.take()).toBe(b2); // b has 2 ms, a 5 ms
    runQuantum(queue, b2!, 4 * MS);
    // a 5 ms < b 6 ms; within a, turns in arrival order: a2 waited while a1 ran.
    expect(queue.take()).toBe(a2);
    expect(queue.take()).toBe(a1);
    expect(queue.vruntimeOf(a)).toBe(5 * MS);
    expect(a.scheduledNanos).toBe(5 * MS); // the group keeps its true figure
  });

  it('an idle group given new work keeps at most two quanta of credit', () => {
    // Before: only a woken split's group was placed; a remembered group offered a new split came
    // back with all the time it sat idle, here 50 quanta: 50 turns in a row ahead of the others.
    const queue = new FairQueue();
    const [busy, idle] = [makeGroup('busy'), makeGroup('idle')];
    const first = makeSplit(1, idle);
    queue.offer(first);
    expect(queue.take()).toBe(first);
    runQuantum(queue, first, 1 * MS); // its one job ends: not re-offered
    const b = makeSplit(2, busy);
    queue.offer(b);
    for (let i = 0; i < 50; i++) {
      expect(queue.take()).toBe(b);
      runQuantum(queue, b, 1 * MS);
      queue.offer(b, 0, 'requeue');
    }
    const back = [3, 4, 5, 6].map((id) => makeSplit(id, idle));
    for (const split of back) queue.offer(split);
    expect(queue.vruntimeOf(idle)).toBe(queue.minVruntime - 2 * MS);
    const picks: number[] = [];
    for (let i = 0; i < 6; i++) {
      const split = queue.take()!;
      picks.push(split.group === idle ? 1 : 0);
      runQuantum(queue, split, 1 * MS);
      if (split.group === busy) queue.offer(split, 0, 'requeue');
    }
    // Two quanta ahead, then turns: never the 4 runs in a row its idle time would have bought.
    expect(picks.slice(0, 4)).not.toEqual([1, 1, 1, 1]);
    expect(picks.filter((p) => p === 1).length).toBeLessThanOrEqual(4);
  });

  it('a group whose split is running is not idle: a new split of it keeps the group’s lead', () => {
    // Before: any group with nothing queued counted as idle, so a weight-3 tenant keeping two
    // runs going on two workers was pulled up to the floor at each new run: a share of 0.5, not
    // 0.75. Here its long split runs while the other group's split cycles.
    const queue = new FairQueue(10 * MS);
    const heavy = { ...makeGroup('heavy'), weight: 3 };
    const light = makeGroup('light');
    const running = makeSplit(1, heavy);
    const cycling = makeSplit(2, light);
    queue.offer(running);
    queue.offer(cycling);
    expect(queue.take()).toBe(running); // away for a long quantum
    for (let i = 0; i < 5; i++) {
      expect(queue.take()).toBe(cycling);
      runQuantum(queue, cycling, 10 * MS);
      queue.offer(cycling, 0, 'requeue');
    }
    expect(queue.minVruntime).toBe(40 * MS);
    queue.offer(makeSplit(3, heavy)); // a new run while `running` runs
    expect(queue.vruntimeOf(heavy)).toBe(0); // not raised to 40 − 2 × 10 / 3 ms
    expect(queue.take()!.id).toBe(3); // its lead holds: it goes first
    // With nothing queued or running (its one split ended), a group is idle again: capped.
    const idleQueue = new FairQueue(10 * MS);
    const g = { ...makeGroup('g'), weight: 3 };
    const other = makeSplit(10, makeGroup('other'));
    idleQueue.offer(other);
    const once = makeSplit(11, g);
    idleQueue.offer(once);
    expect(idleQueue.take()).toBe(other);
    expect(idleQueue.take()).toBe(once);
    runQuantum(idleQueue, once, 1 * MS); // ends: back, not re-offered
    for (let i = 0; i < 5; i++) {
      runQuantum(idleQueue, other, 10 * MS);
      idleQueue.offer(other, 0, 'requeue');
      expect(idleQueue.take()).toBe(other);
    }
    idleQueue.offer(makeSplit(12, g));
    expect(idleQueue.vruntimeOf(g)).toBe(idleQueue.minVruntime - (2 * 10 * MS) / 3);
  });

  it('defers a commit behind a running split whose group would still come first on its return', () => {
    const queue = new FairQueue(10 * MS);
    const [a, b] = [makeGroup('a'), makeGroup('b')];
    const running = makeSplit(1, a);
    queue.offer(running);
    queue.offer(makeSplit(2, b));
    expect(queue.take()).toBe(running); // a: 0, b: 0
    // Back after 10 ms, a would be at 10 ms, b is at 0: b goes first, so b may be committed.
    expect(queue.defers(running, 10 * MS)).toBe(false);
    runQuantum(queue, queue.take()!, 30 * MS); // b served 30 ms
    queue.offer(makeSplit(3, b));
    // Now a, at 0 + 10 ms, still comes before b at 30 ms: nothing of b ahead of it.
    expect(queue.defers(running, 10 * MS)).toBe(true);
    // Its own group's next split may go behind it.
    queue.offer(makeSplit(4, a));
    expect(queue.defers(running, 10 * MS)).toBe(false);
  });

  it('raises a woken group to the minimum so it cannot monopolise on return', () => {
    const queue = new FairQueue();
    const [busy1, busy2, sleeper] = [makeGroup('busy1'), makeGroup('busy2'), makeGroup('sleeper')];
    const sleeperSplit = makeSplit(3, sleeper);
    const busySplits = [makeSplit(1, busy1), makeSplit(2, busy2)];
    queue.offer(sleeperSplit);
    expect(queue.take()).toBe(sleeperSplit); // then blocks: not re-offered
    runQuantum(queue, sleeperSplit, 1 * MS);
    for (const split of busySplits) queue.offer(split);
    for (let i = 0; i < 100; i++) {
      const split = queue.take()!;
      runQuantum(queue, split, 1 * MS);
      queue.offer(split, 0, 'requeue');
    }
    expect(queue.minVruntime).toBeGreaterThanOrEqual(49 * MS);
    queue.offer(sleeperSplit, 0, 'woken');
    expect(queue.vruntimeOf(sleeper)).toBe(queue.minVruntime);
    const picks: number[] = [];
    for (let i = 0; i < 12; i++) {
      const split = queue.take()!;
      picks.push(split.id);
      runQuantum(queue, split, 1 * MS);
      queue.offer(split, 0, 'requeue');
    }
    // Served like its peers: at most one quantum ahead, never a 49 ms catch-up burst.
    const sleeperRuns = picks.filter((id) => id === 3).length;
    expect(sleeperRuns).toBeGreaterThanOrEqual(3);
    expect(sleeperRuns).toBeLessThanOrEqual(5);
  });

  it('starts a group it has not seen at its true scheduled time, raised to the minimum', () => {
    const queue = new FairQueue();
    const old = makeGroup('old');
    old.scheduledNanos = 70 * MS;
    queue.offer(makeSplit(1, old), 0, 'moved');
    expect(queue.vruntimeOf(old)).toBe(70 * MS);
    const first = makeGroup('first');
    queue.offer(makeSplit(2, first), 0, 'moved');
    expect(queue.take()!.id).toBe(2); // 0 ms served beats 70 ms
    expect(queue.take()!.id).toBe(1);
    const late = makeGroup('late');
    queue.offer(makeSplit(3, late));
    expect(queue.vruntimeOf(late)).toBe(70 * MS);
  });

  it('removes a queued split once and drains least vruntime first', () => {
    const queue = new FairQueue();
    const [a, b] = [makeGroup('a'), makeGroup('b')];
    a.scheduledNanos = 10 * MS;
    const splits = [makeSplit(1, a), makeSplit(2, b), makeSplit(3, a), makeSplit(4, b)];
    for (const split of splits) queue.offer(split);
    expect(queue.remove(splits[1]!)).toBe(true);
    expect(queue.remove(splits[1]!)).toBe(false);
    expect(queue.drain().map((split) => split.id)).toEqual([4, 1, 3]);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeNull();
    expect(() => {
      queue.offer(splits[0]!);
      queue.offer(splits[0]!);
    }).toThrow(expect.objectContaining({ code: 'DUPLICATE_ID' }));
  });

  it('forgets idle groups so its table stays bounded', () => {
    const queue = new FairQueue();
    for (let id = 0; id < 20_000; id++) {
      const split = makeSplit(id, makeGroup(`g${id}`));
      queue.offer(split);
      runQuantum(queue, queue.take()!, 1 * MS);
    }
    expect(queue.trackedGroups).toBeLessThanOrEqual(1024);
    expect(queue.levels()[0]).toMatchObject({ depth: 0, selections: 20_000 });
  });

  it("forgets a burst's groups once the queue empties, not when some new group next arrives", () => {
    // A service's one-off tenants: 5,000 each send one run, then only a regular one keeps coming.
    const queue = new FairQueue();
    const regular = makeGroup('regular');
    queue.offer(makeSplit(0, regular));
    for (let id = 1; id <= 5_000; id++) queue.offer(makeSplit(id, makeGroup(`once${id}`)));
    expect(queue.trackedGroups).toBe(5_001);
    for (let taken = queue.take(); taken !== null; taken = queue.take()) {
      runQuantum(queue, taken, 1 * MS);
    }
    // Only the last one taken: charged after the queue emptied, it was remembered again.
    expect(queue.trackedGroups).toBe(1);
    // The regular comes back from its true time, like every forgotten group.
    queue.offer(makeSplit(5_001, regular), 0, 'requeue');
    expect(queue.vruntimeOf(regular)).toBe(1 * MS);
    expect(queue.trackedGroups).toBe(2);
  });

  it('serves groups in proportion to their weights while both wait; a new weight counts from then', () => {
    const queue = new FairQueue();
    const heavy = { ...makeGroup('heavy'), weight: 3 };
    const light = makeGroup('light');
    const splits = [makeSplit(1, heavy), makeSplit(2, light)];
    for (const split of splits) queue.offer(split);
    const served = new Map<string, number>([
      ['heavy', 0],
      ['light', 0],
    ]);
    const serve = (quanta: number) => {
      for (let i = 0; i < quanta; i++) {
        const split = queue.take()!;
        runQuantum(queue, split, 1 * MS);
        served.set(split.group.key, served.get(split.group.key)! + 1);
        queue.offer(split, 0, 'requeue');
      }
    };
    serve(400);
    // Virtual runtime grows by 1/3 ms a quantum for heavy, 1 ms for light: 3 to 1.
    expect(served.get('heavy')).toBe(300);
    expect(served.get('light')).toBe(100);
    expect(queue.vruntimeOf(heavy)! / MS).toBeCloseTo(100, 6);
    expect(heavy.scheduledNanos).toBe(300 * MS); // the group keeps its true figure
    // Equal weights from here on: equal turns.
    (heavy as { weight: number }).weight = 1;
    served.set('heavy', 0).set('light', 0);
    serve(100);
    expect([served.get('heavy'), served.get('light')]).toEqual([50, 50]);
  });
});
