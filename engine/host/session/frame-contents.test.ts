import { describe, expect, it } from 'vitest';
import { MS, intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import type { SimBackend } from '../../runtime/sim/index.ts';
import { FRAME_MAX_TENANTS } from '../../../shared/protocol.ts';
import { Session } from './session.ts';

describe('Session frames: events', () => {
  it('events the ring overwrote before a frame carried them are counted, not lost silently', () => {
    const s = new Session({ config: { workers: 2 }, executor: { eventCapacity: 8 } });
    for (let i = 0; i < 10; i++) {
      s.executor.pause();
      s.executor.resume();
    }
    const f = s.frame();
    expect(f.events).toHaveLength(8); // the 8 newest of 20
    expect(f.events.at(-1)).toMatchObject({ kind: 'resume' });
    expect(f.eventsDropped).toBe(12);
    // The count is cumulative; a frame that kept up adds nothing.
    s.executor.pause();
    const g = s.frame();
    expect(g.events.map((e) => e.kind)).toEqual(['pause']);
    expect(g.eventsDropped).toBe(12);
    for (let i = 0; i < 5; i++) {
      s.executor.resume();
      s.executor.pause();
    }
    expect(s.frame()).toMatchObject({ eventsDropped: 14, events: { length: 8 } });
  });
});

describe('Session frames: levels and workers', () => {
  it('levels carry MLFQ depth, scheduled time and selections; workers their state and split', () => {
    const s = new Session({
      config: {
        workers: 1,
        quantumMs: 10,
        policy: 'mlfq',
        levelThresholdsMs: [0, 20, 100, 400, 1000],
      },
    });
    const sim = s.backend as SimBackend;
    const first = s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(100))));
    sim.runUntil(45 * MS);
    const second = s.executor.submitJob(oneTaskJob('b', intermediates(1, spin(100))));
    sim.runUntil(50 * MS);
    const f = s.frame();
    // The first split ran 0–20 ms at level 0 (2 selections), then 20–50 ms at level 1 (3); at
    // 50 ms the newcomer at level 0 takes the worker (a 3rd level-0 selection) and the first
    // waits at level 1. Scheduled time is Trino's per-level account: L0 = 20 ms run; L1 = 30 ms
    // run + 10 ms caught up when the split entered the empty level (L0 20 / multiplier 2);
    // the newcomer entering the empty level 0 at 45 ms caught L0 up to L1 × 2 = 60 ms.
    expect(f.levels.map((l) => [l.level, l.depth, l.scheduledNanos / MS, l.selections])).toEqual([
      [0, 0, 60, 3],
      [1, 1, 40, 3],
      [2, 0, 0, 0],
      [3, 0, 0, 0],
      [4, 0, 0, 0],
    ]);
    expect(f.workers).toEqual([
      { id: 0, state: 'running', splitId: 2, jobId: second, sinceNanos: 50 * MS },
    ]);
    expect(f.jobs.map((j) => [j.id, j.state])).toEqual([
      [first, 'running'],
      [second, 'running'],
    ]);
  });

  it('a shrink under load shows retiring workers until their quanta end, then idle ones go', () => {
    const s = new Session({ config: { workers: 3, quantumMs: 10, policy: 'fifo' } });
    const sim = s.backend as SimBackend;
    s.executor.submitJob(oneTaskJob('a', intermediates(2, spin(30))));
    sim.runUntil(5 * MS);
    s.executor.setWorkers(1);
    expect(s.frame().workers.map((w) => w.state)).toEqual(['running', 'retiring']);
    sim.runUntil(10 * MS); // worker 1's quantum ends: it leaves; worker 0 runs on
    expect(s.frame().workers.map((w) => [w.id, w.state])).toEqual([[0, 'running']]);
    sim.runUntilIdle();
    expect(s.frame().workers).toEqual([
      { id: 0, state: 'idle', splitId: null, jobId: null, sinceNanos: null },
    ]);
  });
});

describe('Session frames: fair groups', () => {
  it('carry service per fairness group under fair, and only there', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'fair' } });
    const sim = s.backend as SimBackend;
    s.executor.submitJob({
      class: 'scan',
      tasks: [{ splits: intermediates(2, spin(50)) }, { splits: intermediates(2, spin(50)) }],
    });
    sim.runUntil(30 * MS);
    const f = s.frame();
    expect(f.fairGroups).toMatchObject({ unit: 'task', count: 2, totalNanos: 60 * MS });
    s.executor.configure({ fairness: 'query' });
    expect(s.frame().fairGroups).toMatchObject({ unit: 'job', count: 1 });
    s.executor.setPolicy('mlfq');
    expect(s.frame().fairGroups).toBeUndefined();
  });
});

describe('Session frames: tenants', () => {
  it('carry each tenant under every policy, at most FRAME_MAX_TENANTS, the rest counted', () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10, policy: 'mlfq' } });
    const sim = s.backend as SimBackend;
    expect(s.frame().tenants).toBeUndefined(); // no tenant yet: nothing added
    s.executor.configure({ maxLivePerTenant: 1 });
    const job = (tenant: string) => ({ ...oneTaskJob('q', intermediates(1, spin(20))), tenant });
    s.executor.submitJob(job('acme'));
    s.executor.submitJob(job('acme')); // over its bound: rejected
    s.executor.submitJob(job('globex'));
    sim.runUntil(30 * MS); // the two share the worker by quanta: acme's has run 20 ms and ended
    const f = s.frame();
    expect(f.tenants).toEqual([
      { name: 'globex', scheduledNanos: 10 * MS, liveJobs: 1, rejectedJobs: 0, weight: 1 },
      { name: 'acme', scheduledNanos: 20 * MS, liveJobs: 0, rejectedJobs: 1, weight: 1 },
    ]);
    expect(f.tenantsMore).toBe(0);
    for (let i = 0; i < FRAME_MAX_TENANTS + 5; i++) s.executor.submitJob(job(`t${i}`));
    const g = s.frame();
    expect(g.tenants).toHaveLength(FRAME_MAX_TENANTS);
    expect(g.tenantsMore).toBe(7); // 27 tenants held
  });
});
