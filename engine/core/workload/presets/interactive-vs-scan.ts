/**
 * The classic MLFQ case (DESIGN.md §5): one long scan query with many splits, and short
 * interactive queries arriving over time. Thresholds, cap and quantum are Trino's ÷ 20 so it
 * runs live in seconds; under mlfq the interactive queries stay in level 0 and overtake the scan.
 */
import type { WorkloadInput } from '../../../../shared/workload.ts';

export const interactiveVsScan: WorkloadInput = {
  name: 'interactive-vs-scan',
  description:
    'A long scan query with many splits plus short interactive queries arriving over time.',
  seed: 1,
  config: {
    policy: 'mlfq',
    workers: 4,
    quantumMs: 50,
    levelThresholdsMs: [0, 50, 500, 3000, 15_000],
    levelContributionCapMs: 1500,
  },
  threads: { workers: 2 },
  classes: [
    {
      name: 'scan',
      arrival: { kind: 'once', atMs: 0 },
      tasks: 4,
      splits: { intermediate: 16 },
      work: { kernel: 'hash', totalMs: { kind: 'uniform', minMs: 800, maxMs: 1200 } },
      basePriority: 50,
    },
    {
      name: 'interactive',
      arrival: { kind: 'poisson', rate: 8, startMs: 500, count: 80 },
      tasks: 1,
      splits: { intermediate: 2 },
      work: { kernel: 'hash', totalMs: { kind: 'exponential', meanMs: 15 } },
      basePriority: 50,
    },
  ],
};
