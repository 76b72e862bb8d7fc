import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from '../executor/testing.ts';

/**
 * The classic MLFQ case (docs/design.md §5 `interactive-vs-scan`): one long scan with many splits keeps
 * every worker busy while short interactive queries arrive. FIFO makes each interactive split wait
 * a full round of the scan's splits; MLFQ serves the fresh groups at level 0 first.
 */
function interactiveVsScan(policy: PolicyName): { p95: number; scanEnded: boolean } {
  const { sim, ex, ends } = simRig({ workers: 4, quantumMs: 100, policy }, 1);
  ex.submitJob({
    class: 'scan',
    tasks: [{ splits: intermediates(40, spin(5000)) }, { splits: intermediates(40, spin(5000)) }],
  });
  for (let i = 0; i < 40; i++) {
    sim.setTimer((2000 + i * 1500) * MS, () =>
      ex.submitJob(oneTaskJob('interactive', intermediates(4, spin(200)))),
    );
  }
  sim.runUntilIdle();
  const lat = ends
    .filter((e) => e.class === 'interactive')
    .map((e) => e.endNanos - e.submitNanos)
    .sort((a, b) => a - b);
  expect(lat).toHaveLength(40);
  return {
    p95: lat[Math.ceil(0.95 * lat.length) - 1]!,
    scanEnded: ends.some((e) => e.class === 'scan' && e.state === 'succeeded'),
  };
}

describe('interactive vs scan on the simulator', () => {
  it('interactive p95 latency under mlfq is at most a fifth of fifo', () => {
    const mlfq = interactiveVsScan('mlfq');
    const fifo = interactiveVsScan('fifo');
    expect(mlfq.scanEnded && fifo.scanEnded).toBe(true);
    expect(mlfq.p95).toBeLessThanOrEqual(fifo.p95 / 5);
    expect(mlfq.p95).toBeLessThan(1000 * MS);
  });
});
