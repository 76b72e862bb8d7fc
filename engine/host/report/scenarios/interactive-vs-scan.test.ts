// Scenario: the classic MLFQ case on the simulator (seeded, deterministic).
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../../core/workload/presets/index.ts';
import { runWorkload } from '../run-workload.ts';
import type { RunReport } from '../report.ts';

const workload = loadPreset('interactive-vs-scan');

function levelShare(r: RunReport, level: number): number {
  const total = r.levels.reduce((n, l) => n + l.scheduledMs, 0);
  return (r.levels[level]?.scheduledMs ?? 0) / total;
}

describe('interactive-vs-scan', () => {
  it(
    'mlfq keeps interactive p95 latency at most a fifth of fifo’s, and the scan still finishes',
    { timeout: 30_000 },
    async () => {
      const mlfq = (await runWorkload(workload, { config: { policy: 'mlfq' } })).report;
      const fifo = (await runWorkload(workload, { config: { policy: 'fifo' } })).report;
      const i = mlfq.classes['interactive']!;
      expect(i.succeeded).toBe(1400);
      expect(i.latencyMs.p95).toBeLessThanOrEqual(fifo.classes['interactive']!.latencyMs.p95 / 5);
      expect(mlfq.classes['scan']).toMatchObject({ jobs: 1, succeeded: 1, unfinished: 0 });
      expect(mlfq.stoppedAtMs).toBeNull();
    },
  );

  it(
    'raising levelTimeMultiplier from 2 to 4 shifts time toward level 0 while interactive load competes',
    { timeout: 30_000 },
    async () => {
      // The window in which interactive queries arrive (0.5–10.5 s): they want ≈ 84% of the workers,
      // more than level 0's 80% against the scan's level 2 at m = 2, less than its 94% at m = 4.
      const window = { durationMs: 10_500 };
      const m2 = (await runWorkload(workload, { ...window, config: { levelTimeMultiplier: 2 } }))
        .report;
      const m4 = (await runWorkload(workload, { ...window, config: { levelTimeMultiplier: 4 } }))
        .report;
      expect(levelShare(m4, 0) - levelShare(m2, 0)).toBeGreaterThan(0.05);
      expect(m4.classes['interactive']!.latencyMs.p95).toBeLessThan(
        m2.classes['interactive']!.latencyMs.p95,
      );
    },
  );

  it(
    'the same seed gives a byte-identical report; another seed does not',
    { timeout: 30_000 },
    async () => {
      const a = JSON.stringify((await runWorkload(workload, { seed: 7 })).report);
      const b = JSON.stringify((await runWorkload(workload, { seed: 7 })).report);
      const c = JSON.stringify((await runWorkload(workload, { seed: 8 })).report);
      expect(a).toBe(b);
      expect(c).not.toBe(a);
    },
  );
});
