/**
 * The classic MLFQ case (docs/design.md §5): one long scan query with many splits, and short
 * interactive queries arriving over time. Thresholds, cap and quantum are Trino's ÷ 20 so it
 * runs live in seconds. Under mlfq the interactive queries (≈ 24 ms of work each, level 0)
 * overtake the scan's 256 queued splits; under fifo they wait behind them.
 *
 * While they arrive (0.5–10.5 s) the interactive queries ask for ≈ 84% of the 4 workers
 * (140/s × 24 ms): more than level 0 gets against the scan's busy level 2 at m = 2 (4/5 = 80%),
 * less than at m = 4 (16/17 ≈ 94%), so `levelTimeMultiplier` visibly moves time between levels.
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
  classes: [
    {
      name: 'scan',
      arrival: { kind: 'once', atMs: 0 },
      tasks: 8,
      splits: { intermediate: 32 },
      work: { kernel: 'hash', totalMs: { kind: 'uniform', minMs: 400, maxMs: 600 } },
    },
    {
      name: 'interactive',
      arrival: { kind: 'poisson', rate: 140, startMs: 500, count: 1400 },
      tasks: 1,
      splits: { intermediate: 2 },
      work: { kernel: 'hash', totalMs: { kind: 'exponential', meanMs: 12 } },
    },
  ],
};
