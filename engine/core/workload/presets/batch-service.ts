/**
 * A batch service on the PRIO queue (docs/design.md §3.2, §5): user exports (priority 20), reports
 * (50), thumbnails (80) and log clean-up (100) on two workers, overloaded for 40 s (≈ 115% of
 * capacity). Urgent work goes
 * first; aging (after 2 s, one level per 100 ms, cap 100) keeps clean-up from starving. Each job is
 * one split, as a PRIO task is.
 */
import type { WorkloadInput } from '../../../../shared/workload.ts';

export const batchService: WorkloadInput = {
  name: 'batch-service',
  description: 'Exports (20), reports (50), thumbnails (80) and log clean-up (100) with aging.',
  seed: 1,
  config: {
    policy: 'priority',
    workers: 2,
    quantumMs: 1000,
    aging: true,
    agingAfterMs: 2000,
    agingStepMs: 100,
    agingCap: 100,
    agingIntervalMs: 50,
  },
  classes: [
    {
      name: 'export',
      arrival: { kind: 'poisson', rate: 3, count: 120 },
      splits: { intermediate: 1 },
      work: { kernel: 'compress', totalMs: { kind: 'uniform', minMs: 100, maxMs: 300 } },
      basePriority: 20,
    },
    {
      name: 'report',
      arrival: { kind: 'poisson', rate: 2, count: 80 },
      splits: { intermediate: 1 },
      work: { kernel: 'sort', totalMs: { kind: 'uniform', minMs: 200, maxMs: 600 } },
      basePriority: 50,
    },
    {
      name: 'thumbnail',
      arrival: { kind: 'poisson', rate: 6, count: 240 },
      splits: { intermediate: 1 },
      work: { kernel: 'matmul', totalMs: { kind: 'uniform', minMs: 50, maxMs: 150 } },
      basePriority: 80,
    },
    {
      name: 'log-cleanup',
      arrival: { kind: 'periodic', everyMs: 1000, count: 40 },
      splits: { intermediate: 1 },
      work: { kernel: 'spin', totalMs: 300 },
      basePriority: 100,
    },
  ],
};
