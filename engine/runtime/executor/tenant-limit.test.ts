import { describe, expect, it } from 'vitest';
import { intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/** A job of one 50 ms split for `tenant` (or none). */
const job = (tenant?: string) =>
  oneTaskJob('api', intermediates(1, spin(50)), tenant === undefined ? {} : { tenant });

describe('maxLivePerTenant: one tenant cannot fill the queue for everyone', () => {
  it("turns away a flooding tenant's jobs past its limit and still takes the others'", () => {
    const { sim, ex, ends } = simRig({ workers: 1, policy: 'fair', maxLivePerTenant: 3 });
    const flood = Array.from({ length: 5 }, () => ex.submitJob(job('acme')));
    const calm = ex.submitJob(job('globex'));
    expect(flood.map((id) => ex.jobState(id))).toEqual([
      'running',
      'running',
      'running',
      'rejected',
      'rejected',
    ]);
    expect(ex.jobState(calm)).toBe('running');
    const rejected = ends.filter((e) => e.state === 'rejected');
    expect(rejected).toHaveLength(2);
    expect(rejected[0]).toMatchObject({
      tenant: 'acme',
      errorCode: 'QUEUE_FULL',
      rejectedBy: 'maxLivePerTenant',
      error: 'maxLivePerTenant 3 reached by tenant acme',
    });
    expect(ex.counters).toMatchObject({ submitted: 6, rejected: 2, live: 4 });
    expect(ex.tenants()).toEqual([
      expect.objectContaining({ name: 'acme', liveJobs: 3, rejectedJobs: 2 }),
      expect.objectContaining({ name: 'globex', liveJobs: 1, rejectedJobs: 0 }),
    ]);
    sim.runUntilIdle();
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(4);
    // Its jobs ended, so the tenant may submit again.
    expect(ex.jobState(ex.submitJob(job('acme')))).toBe('running');
  });

  it('does not count jobs without a tenant', () => {
    const { ex } = simRig({ workers: 1, maxLivePerTenant: 1 });
    const ids = [job(), job(), job()].map((j) => ex.submitJob(j));
    expect(ids.map((id) => ex.jobState(id))).toEqual(['running', 'running', 'running']);
  });

  it('names maxQueued when the whole queue, not the tenant, is full', () => {
    const { ex, ends } = simRig({ workers: 1, maxQueued: 2, maxLivePerTenant: 10 });
    // One runs at once, two wait: the fourth finds the queue full.
    for (const t of ['a', 'b', 'c', 'd']) ex.submitJob(job(t));
    expect(ends).toEqual([
      expect.objectContaining({
        tenant: 'd',
        rejectedBy: 'maxQueued',
        error: 'maxQueued 2 reached',
      }),
    ]);
  });

  it('changes live: lowering it keeps the jobs taken and refuses later ones; null lifts it', () => {
    const { ex } = simRig({ workers: 1 });
    for (let i = 0; i < 4; i++) ex.submitJob(job('acme'));
    ex.configure({ maxLivePerTenant: 2 });
    expect(ex.counters.live).toBe(4);
    expect(ex.jobState(ex.submitJob(job('acme')))).toBe('rejected');
    ex.configure({ maxLivePerTenant: null });
    expect(ex.jobState(ex.submitJob(job('acme')))).toBe('running');
  });

  it('refuses an out-of-range limit naming the knob, and changes nothing', () => {
    const { ex } = simRig({ workers: 1, maxLivePerTenant: 5 });
    expect(() => ex.configure({ maxLivePerTenant: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'maxLivePerTenant' }),
    );
    expect(ex.config.maxLivePerTenant).toBe(5);
  });
});
