// Headless runs on real threads: the stop and the Trino status lines keep workload time even when
// timeScale makes a workload second 10 ms of wall time.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { runWorkload } from './run-workload.ts';

describe('runWorkload on threads', () => {
  it(
    'stops close to --duration and builds each status line at its own second',
    { timeout: 30_000 },
    async () => {
      // 21 s of workload time is 210 ms of wall time: a 50 ms poll would stop at 250 ms (25 s).
      // The stop timer can be late only as late as this event loop was: measure that, so a
      // machine busy with other work widens the bound instead of failing the test.
      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const { report } = await runWorkload(loadPreset('trino-overloaded'), {
        backend: 'threads',
        config: { workers: 2 },
        durationMs: 21_000,
      });
      lag.disable();
      // Workload ms per wall ms is 100 (Trino's ÷100 time scale).
      const lateMs = (lag.max / 1e6 + 5) * 100;
      expect(report.stoppedAtMs).not.toBeNull();
      expect(report.makespanMs).toBeGreaterThanOrEqual(21_000);
      expect(report.makespanMs).toBeLessThan(21_000 + Math.max(2_000, lateMs));

      const status = report.trino!.status;
      const elapsed = status.map((s) => s.elapsedMs);
      expect(elapsed.slice(0, 21)).toEqual(Array.from({ length: 21 }, (_, i) => i * 1000));
      expect(status.length).toBeLessThanOrEqual(23 + Math.ceil(lateMs / 1000));
      // Each line reads the counters at its own time: work completes and selections grow.
      const completed = status.map((s) => s.splits.completed);
      const selections = status.map((s) => s.selectionsPerLevel.reduce((a, b) => a + b, 0));
      for (let i = 1; i < status.length; i++) {
        expect(completed[i]).toBeGreaterThanOrEqual(completed[i - 1]!);
        expect(selections[i]).toBeGreaterThanOrEqual(selections[i - 1]!);
      }
      // Lines whose timers fire in one stall of the event loop read the same counters (a line is
      // 10 ms of wall time): on a quiet machine most lines differ; on a busy one, still not all
      // are alike, as they were when every line was built at the end.
      const distinct = new Set(selections).size;
      expect(distinct).toBeGreaterThan(1);
      if (lag.max / 1e6 < 10) expect(distinct).toBeGreaterThan(status.length / 2);
    },
  );

  it('runs the engine at the workload timeScale, not at hand-written ÷100 values', async () => {
    const w = { ...loadPreset('trino-within-level-fairness'), timeScale: 0.1 };
    // As above: a stop timer late by this event loop's stalls lets quanta run on meanwhile.
    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const { report } = await runWorkload(w, {
      backend: 'threads',
      config: { workers: 2 },
      durationMs: 1000,
    });
    lag.disable();
    expect(report.timeScale).toBe(0.1);
    expect(report.config.quantumMs).toBe(100);
    expect(report.config.levelThresholdsMs).toEqual([0, 100, 1000, 6000, 30_000]);
    expect(report.config.levelContributionCapMs).toBe(3000);
    // One workload second of 1 s quanta on 2 workers: about 2 quanta, not 20 of a 10 ms quantum
    // (one more a worker for each 100 ms of wall time the stop was late).
    const lateQuanta = 2 * Math.ceil(lag.max / 1e6 / 100);
    expect(report.counters.quanta).toBeLessThanOrEqual(8 + lateQuanta);
  });
});
