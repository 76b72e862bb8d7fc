// Jain's index across tenants in a run's report (docs/metrics.md, "Jain across tenants"): a
// tenant that submits three times as much work does not get three times the service under
// `fair` with query fairness, and the report's index says so; under `fifo` it does.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';
import { TenantJain } from './summary-stats.ts';

function twoTenants(policy: 'fair' | 'fifo') {
  // Together they ask for 3 workers of 2: under fair each gets 1, the light one all it asks.
  const cls = (name: string, tenant: string, everyMs: number) => ({
    name,
    tenant,
    arrival: { kind: 'periodic', everyMs, count: 600 / everyMs },
    splits: { leaf: 1 },
    work: { kernel: 'spin', totalMs: 20 },
  });
  return parseWorkload({
    name: 'tenants',
    config: { workers: 2, quantumMs: 10, policy, fairness: 'query' },
    classes: [cls('heavy', 'acme', 10), cls('light', 'globex', 20)],
  });
}

describe("Jain's index across tenants", () => {
  it('is (Σx)² / (n·Σx²) over each tenant’s scheduled time per its span', () => {
    const j = new TenantJain();
    j.add('a', 0, 100, 50); // x = 0.5
    j.add('a', 50, 200, 50); // a: 100 over 0..200, still 0.5
    j.add('b', 0, 100, 50); // x = 0.5
    expect(j.count).toBe(2);
    expect(j.value).toBe(1);
    j.add('c', 0, 100, 0); // x = 0: (1)² / (3 · 0.5) = 0.667
    expect(j.value).toBe(0.667);
  });

  it('divides each tenant’s rate by its weight: served 3 : 1 at weights 3 : 1 is even', () => {
    const j = new TenantJain();
    j.add('gold', 0, 100, 75, 3); // x = 0.75 / 3
    j.add('free', 0, 100, 25); // x = 0.25
    expect(j.value).toBe(1);
  });

  it('a weighted run under fair is near even by the weights (3 : 1 unweighted would be 0.8)', async () => {
    // Both tenants ask for both workers the whole second, so both are served at their share.
    const doc = (tenantWeights?: Record<string, number>) => {
      const cls = (name: string, tenant: string) => ({
        name,
        tenant,
        arrival: { kind: 'periodic', everyMs: 10 },
        splits: { leaf: 1 },
        work: { kernel: 'spin', totalMs: 20 },
      });
      return parseWorkload({
        name: 'weighted',
        durationMs: 1000,
        config: { workers: 2, quantumMs: 10, policy: 'fair', fairness: 'query' },
        ...(tenantWeights === undefined ? {} : { tenantWeights }),
        classes: [cls('paid', 'gold'), cls('trial', 'free')],
      });
    };
    const weighted = (await runWorkload(doc({ gold: 3 }))).report;
    const gold = weighted.classes['paid']!.scheduledMs;
    const free = weighted.classes['trial']!.scheduledMs;
    expect(gold / free).toBeCloseTo(3, 0);
    // Served 2.9 : 1 over spans that differ a little: 0.948 here; by raw service it is ≈ 0.8.
    expect(weighted.fairness.tenantJain!).toBeGreaterThan(0.9);
    // The report says which weights it measured against.
    expect(weighted.fairness.tenantWeights).toEqual({ gold: 3 });
    expect(formatReport(weighted)).toContain(
      `Jain across 2 tenants ${weighted.fairness.tenantJain} (weights gold ×3)`,
    );
    // Unweighted, fair serves them 1 : 1, which the index (weights all 1) calls even too.
    expect((await runWorkload(doc())).report.fairness.tenantJain!).toBeGreaterThan(0.95);
  });

  it('a run report gives it per tenant: ≥ 0.95 under fair, below it when fifo serves the heavy tenant first', async () => {
    const fair = (await runWorkload(twoTenants('fair'))).report;
    const fifo = (await runWorkload(twoTenants('fifo'))).report;
    expect(fair.fairness.tenants).toBe(2);
    expect(fifo.fairness.tenants).toBe(2);
    // fair: x ≈ 1 (light) and 4/3 (heavy, which ends last); fifo: 2/3 and 4/3.
    expect(fair.fairness.tenantJain!).toBeGreaterThan(0.95);
    expect(fifo.fairness.tenantJain!).toBeLessThan(0.95);
    expect(formatReport(fair)).toContain(`Jain across 2 tenants ${fair.fairness.tenantJain}`);
  });
});
