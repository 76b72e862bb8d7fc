import { describe, expect, it } from 'vitest';
import type { Executor } from './executor.ts';
import { MS, intermediates, leaves, oneTaskJob, simRig, spin } from './testing.ts';

/** Leaf splits admitted and not ended (only leaves, none blocked, so queued + running). */
const admitted = (ex: Executor) => ex.counters.splitsQueued + ex.counters.splitsRunning;

describe('admission and queue knobs change live under load', () => {
  it('guaranteedPerTask and minDrivers admit more at once; a lower maxDriversPerTask takes nothing back', () => {
    const { sim, ex, ends } = simRig({
      workers: 2,
      quantumMs: 10,
      policy: 'fifo',
      guaranteedPerTask: 1,
      minDrivers: 1,
      maxDriversPerTask: 8,
    });
    for (let j = 0; j < 4; j++) ex.submitJob(oneTaskJob('a', leaves(20, spin(30))));
    expect([admitted(ex), ex.counters.splitsWaiting]).toEqual([4, 76]); // one per task
    ex.configure({ guaranteedPerTask: 3 });
    expect([admitted(ex), ex.counters.splitsWaiting]).toEqual([12, 68]);
    ex.configure({ minDrivers: 20 });
    expect([admitted(ex), ex.counters.splitsWaiting]).toEqual([20, 60]);
    ex.configure({ maxDriversPerTask: 2, guaranteedPerTask: 1 }); // never a guarantee above it
    expect([admitted(ex), ex.counters.splitsWaiting]).toEqual([20, 60]); // admitted ones stay
    // The 20 admitted need 300 ms on 2 workers; from then on each task runs at most 2.
    sim.runUntil(400 * MS);
    expect(admitted(ex)).toBe(8);
    for (let t = 400; t < 1000; t += 50) {
      sim.runUntil(t * MS);
      expect(admitted(ex)).toBeLessThanOrEqual(8);
    }
    sim.runUntilIdle();
    expect(ends.map((e) => e.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
  });

  it('maxQueued below the queue size keeps what is queued and refuses what comes next', () => {
    const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 10, policy: 'fifo', maxQueued: 100 });
    for (let j = 0; j < 5; j++) ex.submitJob(oneTaskJob('a', intermediates(10, spin(10))));
    const open = ex.submitJob({ class: 'b', tasks: [{ splits: [], open: true }] });
    expect(ex.counters.splitsQueued).toBe(49); // one of the 50 runs
    ex.configure({ maxQueued: 20 });
    expect(ex.counters.splitsQueued).toBe(49);
    const refused = ex.submitJob(oneTaskJob('c', intermediates(1, spin(10))));
    expect(ex.jobState(refused)).toBe('rejected');
    const [task] = ex.taskIds(open);
    expect(() => ex.addSplits(task!, intermediates(1, spin(10)))).toThrowError(
      expect.objectContaining({ code: 'QUEUE_FULL', field: 'maxQueued' }),
    );
    // Once the queue is back under the new bound, work is taken again.
    sim.runUntil(400 * MS);
    expect(ex.counters.splitsQueued).toBeLessThan(19);
    const later = ex.submitJob(oneTaskJob('c', intermediates(1, spin(10))));
    expect(ex.addSplits(task!, intermediates(1, spin(10)))).toHaveLength(1);
    ex.closeTask(task!);
    sim.runUntilIdle();
    expect(ex.jobState(later)).toBe('succeeded');
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(7);
    expect(ex.counters).toMatchObject({ rejected: 1, rejectedSplits: 1 });
  });

  it('retry backoff grows by the multiplier up to retryBackoffMaxMs, and follows live changes', () => {
    const { sim, ex } = simRig({
      workers: 1,
      quantumMs: 10,
      retryBackoffMs: 10,
      retryBackoffMultiplier: 2,
      retryBackoffMaxMs: 30,
    });
    const gaps = () => {
      const s = ex.spans.read(0).columns;
      return Array.from({ length: s.count - 1 }, (_, i) => (s.start[i + 1]! - s.end[i]!) / MS);
    };
    const failing = oneTaskJob('f', intermediates(1, spin(5, { failProbability: 1 })), {
      retries: 5,
    });
    ex.submitJob(failing);
    sim.runUntilIdle();
    expect(gaps()).toEqual([10, 20, 30, 30, 30]); // 40 capped at 30
    ex.configure({ retryBackoffMs: 1, retryBackoffMultiplier: 3, retryBackoffMaxMs: 5 });
    ex.submitJob(failing);
    sim.runUntilIdle();
    expect(gaps().slice(5)).toEqual([0, 1, 3, 5, 5, 5]); // the second job starts at once
    expect(ex.counters).toMatchObject({ failed: 2, retries: 10 });
  });
});
