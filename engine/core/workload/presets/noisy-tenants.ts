/**
 * Tenants sharing two workers (docs/design.md §3.3, §5), as a service's `Scheduler` sees them:
 * `acme` drops 200 exports of 200 ms at once (20 s of both workers), `initech` asks for a 400 ms
 * report every 250 ms (80 % of the workers), and `globex` sends short API calls (10 % of them).
 * Under `fair` with `query` fairness each tenant is a group: globex, under its share, goes ahead
 * of the backlog, and the other two split the rest by weight (`initech` has 2, `acme` 1).
 * Under `fifo` globex's calls wait behind acme's whole backlog.
 */
import type { WorkloadInput } from '../../../../shared/workload.ts';

export const noisyTenants: WorkloadInput = {
  name: 'noisy-tenants',
  description: 'One tenant floods two workers, one asks for most of them, one sends API calls.',
  seed: 1,
  config: { policy: 'fair', fairness: 'query', workers: 2, quantumMs: 20 },
  tenantWeights: { initech: 2 },
  classes: [
    {
      name: 'acme-export',
      tenant: 'acme',
      arrival: { kind: 'once', atMs: 0, count: 200 },
      splits: { intermediate: 1 },
      work: { kernel: 'compress', totalMs: 200 },
    },
    {
      name: 'initech-report',
      tenant: 'initech',
      arrival: { kind: 'periodic', everyMs: 250, startMs: 500, count: 60 },
      splits: { intermediate: 1 },
      work: { kernel: 'matmul', totalMs: 400 },
    },
    {
      name: 'globex-api',
      tenant: 'globex',
      arrival: { kind: 'poisson', rate: 10, startMs: 500, count: 150 },
      splits: { intermediate: 1 },
      work: { kernel: 'hash', totalMs: { kind: 'uniform', minMs: 10, maxMs: 30 } },
    },
  ],
};
