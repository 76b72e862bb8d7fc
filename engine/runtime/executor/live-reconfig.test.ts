import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import { intermediates, leaves, oneTaskJob, simRig, spin, spanProblems, MS } from './testing.ts';

function checkSpans(s: Parameters<typeof spanProblems>[0]): { finished: number } {
  const r = spanProblems(s);
  expect(r.problems.slice(0, 5)).toEqual([]);
  return r;
}

describe('live reconfiguration under load', () => {
  it('switching policy with hundreds queued loses and duplicates nothing', () => {
    const { sim, ex, ends } = simRig({ workers: 4, quantumMs: 5, policy: 'mlfq' }, 7);
    for (let j = 0; j < 300; j++) {
      ex.submitJob(
        oneTaskJob(j % 3 === 0 ? 'long' : 'short', intermediates(2, spin(j % 3 === 0 ? 40 : 8)), {
          basePriority: j % 101,
        }),
      );
    }
    expect(ex.counters.splitsQueued).toBeGreaterThan(500);
    const order: PolicyName[] = [
      'fifo',
      'priority',
      'fair',
      'mlfq',
      'priority',
      'fifo',
      'mlfq',
      'fair',
    ];
    for (const p of order) {
      sim.runUntil(sim.now() + 30 * MS);
      const before = ex.counters;
      const queued = before.splitsQueued;
      ex.setPolicy(p);
      expect(ex.policyName).toBe(p);
      expect(ex.policy.size).toBe(queued);
      expect(ex.counters.splitsQueued).toBe(queued);
    }
    sim.runUntilIdle();
    expect(ends).toHaveLength(300);
    expect(new Set(ends.map((e) => e.jobId)).size).toBe(300);
    expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
    expect(checkSpans(ex.spans.read(0).columns).finished).toBe(600);
    expect(ex.events.since(0).filter((e) => e.kind === 'policy')).toHaveLength(order.length);
  });

  it('resizing the worker pool under load keeps every split and uses only live workers', () => {
    const { sim, ex, ends } = simRig({ workers: 4, quantumMs: 10 }, 3);
    for (let j = 0; j < 50; j++) ex.submitJob(oneTaskJob('a', leaves(4, spin(35))));
    sim.runUntil(55 * MS);
    ex.setWorkers(1);
    const shrinkAt = sim.now();
    sim.runUntil(200 * MS);
    ex.setWorkers(8);
    const growAt = sim.now();
    sim.runUntilIdle();
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(50);
    const s = ex.spans.read(0).columns;
    checkSpans(s);
    for (let i = 0; i < s.count; i++) {
      // After the shrink (and before the grow) only worker 0 may start a quantum.
      if (s.start[i]! >= shrinkAt && s.start[i]! < growAt) expect(s.worker[i]).toBe(0);
    }
    expect(new Set(s.worker).size).toBe(8);
    expect(ex.workers()).toHaveLength(8);
  });

  it('changing fairness and MLFQ knobs mid-run regroups without loss', () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10, fairness: 'task' }, 5);
    for (let j = 0; j < 40; j++)
      ex.submitJob({
        class: 'a',
        tasks: [{ splits: intermediates(5, spin(25)) }, { splits: leaves(5, spin(25)) }],
      });
    sim.runUntil(100 * MS);
    ex.configure({
      fairness: 'query',
      levelTimeMultiplier: 4,
      levelThresholdsMs: [0, 20, 100, 400, 1000],
    });
    sim.runUntil(300 * MS);
    ex.configure({ fairness: 'split', quantumMs: 3, levelContributionCapMs: 10 });
    sim.runUntilIdle();
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(40);
    expect(checkSpans(ex.spans.read(0).columns).finished).toBe(400);
    expect(ex.events.since(0).map((e) => e.detail.split(':')[0])).toEqual([
      'levelTimeMultiplier',
      'levelThresholdsMs',
      'fairness',
      'quantumMs',
      'levelContributionCapMs',
      'fairness',
    ]);
  });

  it('aging knobs and the quota change live under the priority policy', () => {
    const { sim, ex, ends } = simRig(
      { workers: 2, quantumMs: 10, policy: 'priority', agingAfterMs: 50 },
      9,
    );
    for (let j = 0; j < 60; j++) {
      ex.submitJob(
        oneTaskJob(`p${j % 3}`, intermediates(2, spin(15)), { basePriority: (j % 3) * 40 }),
      );
    }
    sim.runUntil(100 * MS);
    ex.configure({ agingAfterMs: 20, agingStepMs: 5, agingCap: 50, agingIntervalMs: 10 });
    sim.runUntil(200 * MS);
    ex.configure({ aging: false, quotaBurst: 3 });
    sim.runUntilIdle();
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(60);
    expect(ex.events.since(0).map((e) => e.detail.split(':')[0])).toEqual([
      'agingAfterMs',
      'agingStepMs',
      'agingCap',
      'agingIntervalMs',
      'aging',
      'quotaBurst',
    ]);
    expect(() => ex.configure({ agingCap: 101 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'agingCap' }),
    );
  });

  it('aging boosts per band reach the level rows and survive a policy switch and back', () => {
    const { sim, ex } = simRig(
      {
        workers: 1,
        quantumMs: 10,
        policy: 'priority',
        agingAfterMs: 20,
        agingStepMs: 10,
        agingCap: 5,
        agingIntervalMs: 5,
      },
      3,
    );
    // One worker and urgent work ahead: the p80-100 splits wait, and aging boosts them.
    ex.submitJob(oneTaskJob('urgent', intermediates(1, spin(200)), { basePriority: 0 }));
    ex.submitJob(oneTaskJob('low', intermediates(3, spin(10)), { basePriority: 90 }));
    sim.runUntil(100 * MS);
    const boosts = () => ex.levels().map((r) => r.agingBoosts ?? null);
    const before = boosts();
    expect(before.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(before[4]).toBeGreaterThanOrEqual(3);
    ex.setPolicy('fifo');
    expect(ex.levels().every((r) => r.agingBoosts === undefined)).toBe(true);
    ex.setPolicy('priority');
    expect(boosts()).toEqual(before);
  });

  it('pause stops new dispatches; resume continues', () => {
    const { sim, ex } = simRig({ workers: 2, quantumMs: 10 });
    ex.submitJob(oneTaskJob('a', leaves(4, spin(100))));
    sim.runUntil(15 * MS);
    ex.pause();
    sim.runUntil(500 * MS);
    const quanta = ex.counters.quanta;
    expect(ex.counters.splitsRunning).toBe(0);
    sim.runUntil(900 * MS);
    expect(ex.counters.quanta).toBe(quanta);
    ex.resume();
    sim.runUntilIdle();
    expect(ex.counters.succeeded).toBe(1);
  });
});
