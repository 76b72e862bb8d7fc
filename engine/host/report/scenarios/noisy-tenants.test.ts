// Scenario: tenants sharing two workers under `fair` (simulator, seeded): the tenant under its
// share goes ahead of another's backlog, and a weight of 2 serves its tenant twice as fast.
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../../core/workload/presets/index.ts';
import { runWorkload } from '../run-workload.ts';

const workload = loadPreset('noisy-tenants');

async function p95s(w = workload, policy?: 'fifo') {
  const { report } = await runWorkload(w, policy === undefined ? {} : { config: { policy } });
  const c = report.classes;
  for (const name of ['acme-export', 'initech-report', 'globex-api'])
    expect(c[name]!.succeeded).toBe(c[name]!.jobs);
  return {
    globex: c['globex-api']!.latencyMs.p95,
    initech: c['initech-report']!.latencyMs.p95,
  };
}

describe('noisy-tenants', () => {
  it('under fair the API tenant’s calls pass the flood; under fifo they wait behind it', async () => {
    const fair = await p95s();
    const fifo = await p95s(workload, 'fifo');
    // A call is 10–30 ms of work: under fair it waits for at most a quantum or two.
    expect(fair.globex).toBeLessThan(100);
    expect(fifo.globex).toBeGreaterThan(20 * fair.globex);
    expect(fifo.initech).toBeGreaterThan(3 * fair.initech);
  });

  it('initech’s weight of 2 halves its reports’ latency against weight 1', async () => {
    expect(workload.tenantWeights).toEqual({ initech: 2 });
    const weighted = await p95s();
    const { tenantWeights: _, ...rest } = workload;
    const even = await p95s(rest);
    expect(even.initech).toBeGreaterThan(1.6 * weighted.initech);
    // The API tenant, under its share either way, is served about the same (within 10 %).
    expect(even.globex / weighted.globex).toBeGreaterThan(0.9);
    expect(even.globex / weighted.globex).toBeLessThan(1.1);
  });
});
