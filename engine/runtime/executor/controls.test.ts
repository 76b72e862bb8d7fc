import { describe, expect, it } from 'vitest';
import type { Executor } from './executor.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/** Job ids in the order their first quantum started. */
function dispatchOrder(ex: Executor): number[] {
  const s = ex.spans.read(0).columns;
  const order: number[] = [];
  for (let i = 0; i < s.count; i++) if (!order.includes(s.job[i]!)) order.push(s.job[i]!);
  return order;
}

describe('reprioritize', () => {
  function queued() {
    const rig = simRig({ workers: 1, quantumMs: 10, policy: 'priority', preemptive: true });
    const blocker = rig.ex.submitJob(
      oneTaskJob('x', intermediates(1, spin(10)), { basePriority: 0 }),
    );
    const a = rig.ex.submitJob(oneTaskJob('a', intermediates(1, spin(10)), { basePriority: 10 }));
    const b = rig.ex.submitJob(oneTaskJob('b', intermediates(1, spin(10)), { basePriority: 20 }));
    const c = rig.ex.submitJob(oneTaskJob('c', intermediates(1, spin(10)), { basePriority: 30 }));
    return { ...rig, blocker, a, b, c };
  }

  it('a queued job moved to a more urgent priority is dispatched before the others', () => {
    const unchanged = queued();
    unchanged.sim.runUntilIdle();
    const { blocker, a, b, c } = unchanged;
    expect(dispatchOrder(unchanged.ex)).toEqual([blocker, a, b, c]);

    const moved = queued();
    moved.ex.reprioritize(moved.c, 5);
    moved.ex.reprioritize(moved.a, 25);
    moved.sim.runUntilIdle();
    expect(dispatchOrder(moved.ex)).toEqual([blocker, c, b, a]);
    expect(moved.ends.find((e) => e.jobId === c)).toMatchObject({ basePriority: 5 });
  });

  it('an unknown job or an out-of-range priority is a coded error naming the field', () => {
    const { ex, a } = queued();
    expect(() => ex.reprioritize(999, 5)).toThrowError(
      expect.objectContaining({ code: 'UNKNOWN_ID', field: 'jobId' }),
    );
    expect(() => ex.reprioritize(a, 101)).toThrowError(
      expect.objectContaining({ field: 'priority' }),
    );
  });
});

describe('events', () => {
  it('carry the backend clock at the moment of the change', () => {
    const { sim, ex } = simRig({ workers: 2, quantumMs: 10, policy: 'priority' });
    const job = ex.submitJob(oneTaskJob('a', intermediates(4, spin(500))));
    const at = (ms: number) => sim.runUntil(ms * MS);
    at(37);
    ex.configure({ quantumMs: 5 });
    at(50);
    ex.pause();
    at(61.5);
    ex.resume();
    at(80);
    ex.reprioritize(job, 3);
    at(95);
    ex.setWorkers(3);
    at(120);
    ex.setPolicy('mlfq');
    at(133);
    ex.cancelJob(job);
    expect(ex.events.since(0).map((e) => [e.kind, e.timeNanos / MS])).toEqual([
      ['config', 37],
      ['pause', 50],
      ['resume', 61.5],
      ['reprioritize', 80],
      ['workers', 95],
      ['policy', 120],
      ['cancel', 133],
    ]);
  });
});

describe('stopDispatchAt', () => {
  it('starts no quantum at or after the stop, though work is still queued and the clock runs on', () => {
    // A headless threads run's stop timer fires late on a loaded machine: until it did, quanta
    // kept starting past --duration.
    const { sim, ex } = simRig({ workers: 2, quantumMs: 10 });
    ex.submitJob(oneTaskJob('a', intermediates(6, spin(100))));
    ex.stopDispatchAt(35 * MS);
    sim.runUntil(200 * MS);
    const s = ex.spans.read(0).columns;
    expect(s.count).toBeGreaterThan(0);
    for (let i = 0; i < s.count; i++) expect(s.start[i]!).toBeLessThan(35 * MS);
    // The quanta running at the stop end at their own time, nothing follows them.
    expect(Math.max(...s.start.slice(0, s.count))).toBe(30 * MS);
    expect(ex.counters.live).toBe(1);
  });
});
