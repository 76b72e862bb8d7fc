import { describe, expect, it } from 'vitest';
import type { EngineConfigPatch } from '../../../shared/config.ts';
import type { SplitWork } from '../../../shared/job.ts';
import { MAX_IDLE_TENANTS, Tenants } from './tenants.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/**
 * Tenant A floods (two 30 ms jobs every 10 ms for 400 ms: six times what the one worker does);
 * tenant B sends one 10 ms job at 300 ms. Returns B's wait.
 */
function lightTenantWait(config: EngineConfigPatch, withTenants: boolean): number {
  const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 10, ...config });
  const tenant = (name: string) => (withTenants ? { tenant: name } : {});
  for (let at = 0; at < 400; at += 10) {
    sim.setTimer(at * MS, () => {
      for (let i = 0; i < 2; i++) {
        ex.submitJob(oneTaskJob('flood', intermediates(1, spin(30)), tenant('a')));
      }
    });
  }
  sim.setTimer(300 * MS, () => {
    ex.submitJob(oneTaskJob('light', intermediates(1, spin(10)), tenant('b')));
  });
  sim.runUntilIdle();
  const light = ends.find((e) => e.class === 'light');
  expect(light?.state).toBe('succeeded');
  return light!.waitNanos;
}

describe('tenants are fairness groups (query fairness)', () => {
  const mlfq: EngineConfigPatch = {
    policy: 'mlfq',
    fairness: 'query',
    levelThresholdsMs: [0, 20, 100, 400, 1000],
  };

  it("under mlfq a flooding tenant's accumulated time lowers every one of its jobs", () => {
    // A's 300 ms put its group at level 2; B is at level 0 and runs after the current quantum.
    expect(lightTenantWait(mlfq, true)).toBeLessThanOrEqual(10 * MS);
    // Without tenants A's fresh jobs are level 0 too, and older: B waits behind them.
    expect(lightTenantWait(mlfq, false)).toBeGreaterThan(100 * MS);
  });

  it('under fair a light tenant is served at once however deep the flood', () => {
    expect(lightTenantWait({ policy: 'fair', fairness: 'query' }, true)).toBeLessThanOrEqual(
      10 * MS,
    );
  });

  it("a tenant's time is the sum of its jobs'; its row counts live jobs", () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10, fairness: 'query' });
    ex.submitJob(oneTaskJob('x', intermediates(1, spin(20)), { tenant: 'a' }));
    ex.submitJob(oneTaskJob('x', intermediates(1, spin(30)), { tenant: 'a' }));
    ex.submitJob(oneTaskJob('x', intermediates(1, spin(5)), { tenant: 'b' }));
    expect(ex.tenants().map((t) => [t.name, t.liveJobs])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    sim.runUntilIdle();
    expect(ends.map((e) => e.tenant).sort()).toEqual(['a', 'a', 'b']);
    const rows = Object.fromEntries(ex.tenants().map((t) => [t.name, t]));
    const idle = { liveJobs: 0, rejectedJobs: 0, weight: 1 };
    expect(rows.a).toEqual({ name: 'a', scheduledNanos: 50 * MS, ...idle });
    expect(rows.b).toEqual({ name: 'b', scheduledNanos: 5 * MS, ...idle });
  });

  it('under fair, tenant weights share the worker 3 to 1; rows, fair groups and Jain follow', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'fair', fairness: 'query' });
    ex.setTenantWeights({ gold: 3 });
    // Both tenants keep runs waiting for 2 s of work each; the worker serves 1 s of it.
    for (const tenant of ['gold', 'free']) {
      for (let i = 0; i < 20; i++) {
        ex.submitJob(oneTaskJob('x', intermediates(1, spin(100)), { tenant }));
      }
    }
    sim.runUntil(1000 * MS);
    const rows = Object.fromEntries(ex.tenants().map((t) => [t.name, t]));
    expect(rows.gold!.weight).toBe(3);
    expect(rows.free!.weight).toBe(1);
    expect(rows.gold!.scheduledNanos / rows.free!.scheduledNanos).toBeCloseTo(3, 1);
    const groups = ex.fairGroups();
    expect(groups.groups.map((g) => [g.label, g.weight])).toEqual([
      ['gold', 3],
      ['free', undefined],
    ]);
    // Served 3 to 1 as weighted: even by Jain's index over service per weight.
    expect(groups.jain).toBeGreaterThan(0.99);
    expect(groups.weighted).toBe(1);
    expect(ex.tenantWeights).toEqual({ gold: 3 });
  });

  it('a bad tenant weight is a coded error naming it, and changes nothing', () => {
    const { ex } = simRig({ policy: 'fair', fairness: 'query' });
    ex.setTenantWeights({ gold: 3 });
    for (const [weights, field] of [
      [{ gold: 0 }, 'tenantWeights.gold'],
      [{ gold: 2000 }, 'tenantWeights.gold'],
      [{ '': 2 }, 'tenantWeights'],
    ] as const) {
      expect(() => ex.setTenantWeights(weights)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', field }),
      );
    }
    expect(ex.tenantWeights).toEqual({ gold: 3 });
  });

  it('a weight is kept by name: a tenant forgotten and back, or new, has its weight', () => {
    const tenants = new Tenants();
    const live = tenants.acquire('gold', 0);
    tenants.setWeights(new Map([['gold', 2]]));
    expect(live.weight).toBe(2); // changed live
    tenants.release(live, 0);
    for (let i = 0; i <= MAX_IDLE_TENANTS; i++) tenants.release(tenants.acquire(`t${i}`, 0), 0);
    expect(tenants.acquire('gold', 0).weight).toBe(2); // forgotten and made anew: still 2
    tenants.setWeights(new Map());
    expect(tenants.acquire('gold', 0).weight).toBe(1);
  });

  it('a bad tenant name is a coded error naming the field', () => {
    const { ex } = simRig();
    expect(() => ex.submitJob(oneTaskJob('x', intermediates(1, spin(1)), { tenant: '' }))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'tenant' }),
    );
    expect(ex.counters.submitted).toBe(0);
  });

  it('idle tenants are bounded: the longest idle is forgotten first', () => {
    const tenants = new Tenants();
    const first = tenants.acquire('t0', 0);
    first.scheduledNanos = 7;
    tenants.release(first, 0);
    expect(tenants.acquire('t0', 0).scheduledNanos).toBe(7); // kept while idle
    tenants.release(first, 0);
    for (let i = 1; i <= MAX_IDLE_TENANTS; i++) tenants.release(tenants.acquire(`t${i}`, 0), 0);
    expect(tenants.acquire('t0', 0).scheduledNanos).toBe(0); // forgotten, starts over
    expect(tenants.rows(Infinity).length).toBe(MAX_IDLE_TENANTS + 1);
  });

  it('forgets by when a tenant last went idle, however often tenants come back', () => {
    const tenants = new Tenants();
    const kept = tenants.acquire('back', 0);
    kept.scheduledNanos = 5;
    tenants.release(kept, 0); // idle first...
    for (let i = 0; i < MAX_IDLE_TENANTS - 1; i++) {
      const u = tenants.acquire(`u${i}`, 0);
      u.scheduledNanos = 1;
      tenants.release(u, 0);
    }
    // ...then back and idle again, many times, while others churn: now the most recently idle.
    for (let round = 0; round < 3 * MAX_IDLE_TENANTS; round++) {
      tenants.release(tenants.acquire('back', 0), 0);
      tenants.release(tenants.acquire(`u${round % 100}`, 0), 0);
    }
    for (let i = 0; i < MAX_IDLE_TENANTS - 200; i++)
      tenants.release(tenants.acquire(`v${i}`, 0), 0);
    expect(tenants.acquire('back', 0).scheduledNanos).toBe(5); // not forgotten: idle recently
    // The 9,800 newcomers pushed out the 9,800 idle longest: u100…u9899, not u9900 on.
    expect(tenants.acquire('u5000', 0).scheduledNanos).toBe(0);
    expect(tenants.acquire('u9899', 0).scheduledNanos).toBe(0);
    expect(tenants.acquire('u9900', 0).scheduledNanos).toBe(1);
    expect(tenants.acquire('u42', 0).scheduledNanos).toBe(1); // churned: idle recently
    expect(tenants.rows(Infinity).length).toBeLessThanOrEqual(MAX_IDLE_TENANTS + 2);
  });
});

describe('fair: a tenant back from idle keeps at most two quanta of credit', () => {
  /**
   * Tenants A and B keep the one worker busy; `extra` runs beside them from 0; C runs 10 ms at 0,
   * then comes back at 2 s with 5 s of work. Returns how many quanta C runs in a row on its return.
   */
  function returningRun(extra: SplitWork, weights: Record<string, number>): number {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'fair', fairness: 'query' });
    ex.setTenantWeights(weights);
    for (const tenant of ['A', 'B'])
      ex.submitJob(oneTaskJob(tenant, intermediates(1, spin(100_000)), { tenant }));
    ex.submitJob(oneTaskJob('extra', intermediates(1, extra), { tenant: 'X' }));
    ex.submitJob(oneTaskJob('C', intermediates(1, spin(10)), { tenant: 'C' }));
    sim.setTimer(2000 * MS, () => {
      ex.submitJob(oneTaskJob('C', intermediates(1, spin(5000)), { tenant: 'C' }));
    });
    sim.runUntil(3000 * MS);
    const spans = ex.spans.read(0).columns;
    let inRow = 0;
    for (let i = 0; i < spans.start.length; i++) {
      if (spans.start[i]! < 2000 * MS) continue;
      if (ex.jobRow(spans.job[i]!)?.class !== 'C') {
        if (inRow > 0) break;
        continue;
      }
      inRow++;
    }
    return inRow;
  }

  it('whatever another tenant’s weight, and whatever one call overran', () => {
    // Before: a tenant of weight 0.01 made the credit 100 quanta (C ran 98 in a row while A and B
    // waited a second); one 300 ms call, 30 quanta (C ran 60 in a row).
    expect(returningRun(spin(100_000), { X: 0.01 })).toBeLessThanOrEqual(3);
    expect(returningRun(spin(300, { perCallNanos: 300 * MS }), {})).toBeLessThanOrEqual(3);
    expect(returningRun(spin(100_000), {})).toBeGreaterThanOrEqual(1);
  });
});
