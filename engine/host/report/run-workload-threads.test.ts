// Headless runs on real threads: the stop and the Trino status lines keep workload time even when
// timeScale makes a workload second 10 ms of wall time.
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { runWorkload } from './run-workload.ts';

describe('runWorkload on threads', () => {
  it(
    'stops close to --duration and builds each status line at its own second',
    { timeout: 30_000 },
    async () => {
      // 23 s of workload time is 230 ms of wall time: not a multiple of any poll period.
      const { report } = await runWorkload(loadPreset('trino-overloaded'), {
        backend: 'threads',
        config: { workers: 2 },
        durationMs: 23_000,
      });
      expect(report.stoppedAtMs).not.toBeNull();
      expect(report.makespanMs).toBeGreaterThanOrEqual(23_000);
      // A timer fires within a few ms of wall time (≤ 1 s of workload time at ÷100).
      expect(report.makespanMs).toBeLessThan(24_000);

      const status = report.trino!.status;
      const elapsed = status.map((s) => s.elapsedMs);
      expect(elapsed.slice(0, 23)).toEqual(Array.from({ length: 23 }, (_, i) => i * 1000));
      expect(status.length).toBeLessThanOrEqual(25);
      // Each line reads the counters at its own time: work completes and selections grow.
      const completed = status.map((s) => s.splits.completed);
      const selections = status.map((s) => s.selectionsPerLevel.reduce((a, b) => a + b, 0));
      for (let i = 1; i < status.length; i++) {
        expect(completed[i]).toBeGreaterThanOrEqual(completed[i - 1]!);
        expect(selections[i]).toBeGreaterThanOrEqual(selections[i - 1]!);
      }
      expect(new Set(selections).size).toBeGreaterThan(status.length / 2);
    },
  );
});
