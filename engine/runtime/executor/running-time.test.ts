import { describe, expect, it } from 'vitest';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor } from './executor.ts';
import { leaves, MS, oneTaskJob, spin } from './testing.ts';

// Busy and overrun time count running quanta as they pass, from when the backend says the
// quantum started: a dispatch still waiting for its worker to boot is not yet busy, nor a runaway.

/** The sim, with its quanta starting only once `bootedAt` is reached (a worker still booting). */
class BootingSim extends SimBackend {
  bootedAt = Infinity;
  quantumStart(): number | null {
    return this.now() >= this.bootedAt ? this.bootedAt : null;
  }
}

describe('running quanta in the counters', () => {
  it('count from the start the backend reports; nothing while the worker boots', () => {
    const sim = new BootingSim({ workers: 1 });
    const ex = new Executor(sim, { workers: 1, quantumMs: 10_000, runawayAfterMs: 5 });
    ex.submitJob(oneTaskJob('long', leaves(1, spin(1000))));
    sim.runUntil(300 * MS);
    expect(ex.counters).toMatchObject({ splitsRunning: 1, busyNanos: 0, overrunNanos: 0 });
    sim.bootedAt = 300 * MS;
    sim.runUntil(400 * MS);
    expect(ex.counters.busyNanos).toBe(100 * MS);
    expect(ex.runawaySplits()).toEqual([]);
  });

  it('count overrun past the quantum while it runs and never go back when it ends', () => {
    const sim = new SimBackend({ workers: 1 });
    // One atomic 50 ms call on a 10 ms quantum: a runaway (past 10 + 5 ms) until it ends.
    const ex = new Executor(sim, { workers: 1, quantumMs: 10, runawayAfterMs: 5 });
    ex.submitJob(oneTaskJob('call', leaves(1, spin(50, { perCallNanos: 50 * MS }))));
    sim.runUntil(30 * MS);
    expect(ex.counters).toMatchObject({ busyNanos: 30 * MS, overrunNanos: 20 * MS });
    expect(ex.runawaySplits()).toEqual([expect.objectContaining({ workerId: 0, overrunMs: 20 })]);
    sim.runUntilIdle();
    expect(ex.counters).toMatchObject({
      busyNanos: 50 * MS,
      overrunNanos: 40 * MS,
      runawayQuanta: 1,
    });
    expect(ex.runawaySplits()).toEqual([]);
  });
});
