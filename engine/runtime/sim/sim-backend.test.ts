import { describe, expect, it } from 'vitest';
import type { QuantumEnd } from '../backend.ts';
import { MS, intermediates, leaves, oneTaskJob, simRig, spin } from '../executor/testing.ts';
import { SimBackend } from './sim-backend.ts';
import { mulberry32 } from '../../../shared/lib/rng.ts';

function collect(sim: SimBackend): QuantumEnd[] {
  const ends: QuantumEnd[] = [];
  sim.setListener({ quantumEnd: (e) => ends.push(e) });
  return ends;
}

describe('SimBackend', () => {
  it('a dispatch runs min(quantum, remaining), or one whole call that may overrun the quantum', () => {
    const sim = new SimBackend({ workers: 2 });
    const ends = collect(sim);
    sim.start({
      splitId: 1,
      workerId: 0,
      quantumNanos: 10 * MS,
      work: spin(25),
      doneNanos: 20 * MS,
    });
    sim.start({
      splitId: 2,
      workerId: 1,
      quantumNanos: 10 * MS,
      work: spin(100, { perCallNanos: 40 * MS }),
      doneNanos: 0,
    });
    expect(sim.idleWorkers()).toEqual([]);
    sim.runUntilIdle();
    expect(ends).toEqual([
      expect.objectContaining({
        splitId: 1,
        ranNanos: 5 * MS,
        outcome: 'finished',
        endNanos: 5 * MS,
      }),
      expect.objectContaining({
        splitId: 2,
        ranNanos: 40 * MS,
        workNanos: 40 * MS,
        outcome: 'yielded',
      }),
    ]);
  });

  it('blocked calls report the blocked time; sleep blocks without holding the worker', () => {
    const sim = new SimBackend({ workers: 1 });
    const ends = collect(sim);
    sim.start({
      splitId: 1,
      workerId: 0,
      quantumNanos: 10 * MS,
      work: spin(30, { perCallNanos: 5 * MS, blockedNanosPerCall: 7 * MS }),
      doneNanos: 0,
    });
    sim.runUntilIdle();
    sim.start({
      splitId: 2,
      workerId: 0,
      quantumNanos: 10 * MS,
      work: { kernel: 'sleep', totalNanos: 50 * MS },
      doneNanos: 0,
    });
    sim.runUntilIdle();
    expect(ends[0]).toMatchObject({ outcome: 'blocked', blockedNanos: 7 * MS, ranNanos: 5 * MS });
    expect(ends[1]).toMatchObject({
      outcome: 'blocked',
      blockedNanos: 50 * MS,
      ranNanos: 0,
      workNanos: 50 * MS,
    });
  });

  it('sleep with perCallNanos blocks one call per dispatch, like threads; then it finishes', () => {
    const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 10, policy: 'fifo' });
    ex.submitJob(
      oneTaskJob(
        'io',
        intermediates(1, { kernel: 'sleep', totalNanos: 25 * MS, perCallNanos: 10 * MS }),
      ),
    );
    ex.submitJob(oneTaskJob('cpu', intermediates(1, spin(30))));
    sim.runUntilIdle();
    const c = ex.spans.read(0).columns;
    const io = [...Array(c.count).keys()].filter((i) => c.split[i] === 1);
    // Three calls (10 + 10 + 5 ms blocked, no worker time; the cpu split runs meanwhile), then
    // the dispatch that finishes, once the cpu split frees the worker at 30 ms.
    expect(io.map((i) => [c.start[i]! / MS, c.outcome[i]])).toEqual([
      [0, 1],
      [10, 1],
      [20, 1],
      [30, 2],
    ]);
    expect(ends.map((e) => [e.class, e.endNanos / MS])).toEqual([
      ['cpu', 30],
      ['io', 30],
    ]);
    expect(ex.counters.busyNanos).toBe(30 * MS); // sleeping held no worker
  });

  it('a call shorter than a nanosecond still moves the clock, and the run ends', () => {
    // `perCallNanos: 1e-300` (accepted by submitJob then; now refused past MAX_CALLS_PER_SPLIT
    // calls) ran quanta that took no time, for ever: the clock stayed put and every other job
    // starved until `cancelAll`. A call under a nanosecond still counts as one.
    const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 1 });
    ex.submitJob(oneTaskJob('tiny', intermediates(1, spin(0.002, { perCallNanos: 0.05 }))));
    ex.submitJob(oneTaskJob('other', intermediates(1, spin(1))));
    sim.runUntil(1000 * MS);
    expect(ends.map((e) => [e.class, e.state]).sort()).toEqual([
      ['other', 'succeeded'],
      ['tiny', 'succeeded'],
    ]);
    expect(ex.counters.quanta).toBeLessThanOrEqual(2_000 + 1);
  });

  it('cancel ends a running quantum now with the work done so far', () => {
    const sim = new SimBackend({ workers: 1 });
    const ends = collect(sim);
    sim.start({ splitId: 9, workerId: 0, quantumNanos: 100 * MS, work: spin(1000), doneNanos: 0 });
    sim.runUntil(30 * MS);
    sim.cancel(9);
    sim.runUntilIdle();
    expect(ends).toEqual([
      expect.objectContaining({
        outcome: 'cancelled',
        ranNanos: 30 * MS,
        workNanos: 30 * MS,
        endNanos: 30 * MS,
      }),
    ]);
    expect(sim.idleWorkers()).toEqual([0]);
  });

  it('timers fire in time order, ties in scheduling order, and can be cancelled', () => {
    const sim = new SimBackend();
    const fired: string[] = [];
    sim.setTimer(20, () => fired.push('b'));
    sim.setTimer(10, () => fired.push('a'));
    sim.setTimer(20, () => fired.push('c'));
    const cancel = sim.setTimer(15, () => fired.push('x'));
    cancel();
    sim.runUntil(19);
    expect(fired).toEqual(['a']);
    expect(sim.now()).toBe(19);
    sim.runUntilIdle();
    expect(fired).toEqual(['a', 'b', 'c']);
  });

  it('refuses a dispatch to a busy or retired worker', () => {
    const sim = new SimBackend({ workers: 2 });
    sim.start({ splitId: 1, workerId: 0, quantumNanos: MS, work: spin(5), doneNanos: 0 });
    expect(() =>
      sim.start({ splitId: 2, workerId: 0, quantumNanos: MS, work: spin(5), doneNanos: 0 }),
    ).toThrow(/not idle/);
    sim.setWorkerCount(1);
    expect(sim.idleWorkers()).toEqual([]);
    expect(() =>
      sim.start({ splitId: 3, workerId: 1, quantumNanos: MS, work: spin(5), doneNanos: 0 }),
    ).toThrow(/not idle/);
  });

  it('mulberry32 is seeded: same seed, same stream; different seed, different stream', () => {
    const a = mulberry32(5);
    const b = mulberry32(5);
    const c = mulberry32(6);
    const sa = Array.from({ length: 8 }, a);
    expect(Array.from({ length: 8 }, b)).toEqual(sa);
    expect(Array.from({ length: 8 }, c)).not.toEqual(sa);
    expect(sa.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('simulator determinism', () => {
  function run(seed: number): string {
    const { sim, ex, ends } = simRig({ workers: 3, quantumMs: 7, retryBackoffMs: 3 }, seed);
    for (let j = 0; j < 40; j++) {
      ex.submitJob(
        oneTaskJob(
          j % 2 ? 'a' : 'b',
          [
            ...leaves(3, spin(10 + (j % 7) * 9, { failProbability: 0.2, perCallNanos: 4 * MS })),
            ...intermediates(2, spin(15, { blockedNanosPerCall: 3 * MS })),
          ],
          { retries: 1 },
        ),
      );
      if (j === 20) ex.setPolicy('fair');
    }
    sim.runUntilIdle();
    return JSON.stringify({
      ends,
      counters: ex.counters,
      spans: ex.spans.read(0).columns,
      levels: ex.levels(),
    });
  }

  it('the same seed gives a byte-identical report; another seed a different one', () => {
    const a = run(11);
    expect(run(11)).toBe(a);
    expect(run(12)).not.toBe(a);
  });
});
