// Scenarios: Trino's simulator experiments (../shared/trino-simulator.md) on our simulator.
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../../core/workload/presets/index.ts';
import { runWorkload } from '../run-workload.ts';

const S = 1000;

describe("Trino's experiments", () => {
  it(
    'within-level fairness: both classes get equal shares of level 4 (±10%) once both are there',
    { timeout: 30_000 },
    async () => {
      const w = loadPreset('trino-within-level-fairness');
      const { trace } = await runWorkload(w, { trace: true });
      // The short class arrives at 60 s and climbs to level 4 (300 s of task time) in ~25 s; from
      // its first level-4 quantum to the end (205 s) both classes compete inside level 4.
      const l4 = trace!.traceEvents.filter((e) => e.ph === 'X' && e.args?.['level'] === 4);
      const both = Math.min(...l4.filter((e) => e.name.startsWith('l4_short')).map((e) => e.ts!));
      expect(both).toBeGreaterThan(60 * S * 1000);
      expect(both).toBeLessThan(100 * S * 1000);
      const time: Record<string, number> = {};
      for (const e of l4) {
        if (e.ts! < both) continue;
        const cls = e.name.split(' ')[0]!;
        time[cls] = (time[cls] ?? 0) + e.dur!;
      }
      const long = time['l4_long']!;
      const short = time['l4_short']!;
      expect(long).toBeGreaterThan(0);
      expect(Math.abs(long - short) / ((long + short) / 2)).toBeLessThanOrEqual(0.1);
    },
  );

  it(
    'misbehaving quanta: quantum overruns do not change accrued time shares (±15%)',
    { timeout: 30_000 },
    async () => {
      // The first 5 of Trino's 40 minutes: long enough for both classes to live in levels 3–4.
      const { report } = await runWorkload(loadPreset('trino-misbehaving-quanta'), {
        durationMs: 5 * 60 * S,
      });
      const good = report.classes['good_leaf']!.scheduledMs;
      const bad = report.classes['bad_leaf']!.scheduledMs;
      expect(report.counters.overrunMs).toBeGreaterThan(0);
      expect(good / bad).toBeGreaterThanOrEqual(0.85);
      expect(good / bad).toBeLessThanOrEqual(1.15);
    },
  );

  it(
    'starve slow splits: short tasks finish faster and no ready split waits beyond the derived bound',
    { timeout: 60_000 },
    async () => {
      /**
       * Bound on the wait of a ready split between two quanta. With m = 2 every busy level gets at
       * least 1/(1+2+4+8+16) = 1/31 of the 36 workers, so even level 4 runs ≥ 36/31 ≈ 1.16 workers'
       * worth of quanta. Inside a level splits go by their task's levelPriority, which grows with
       * every quantum, so a split waits at most one round of its level: every other ready split once.
       * Ready leaf splits are at most (40 slow + 40 fast tasks) × 3 outstanding = 240, each call
       * ≈ 1 s on average (Trino's per-call mix: ≈ 0.95 s), and a call already running may take up to
       * 15 s (the 3–15 s band; the 200 s band has probability 10⁻⁴ and occupies one worker only):
       *   bound = 240 × 1 s / (36/31) + 15 s ≈ 222 s — "no starvation beyond a couple of minutes".
       */
      const BOUND_MS = (240 * 1000) / (36 / 31) + 15_000;
      const { report } = await runWorkload(loadPreset('trino-starve-slow'), {
        durationMs: 5 * 60 * S,
      });
      const c = report.classes;
      for (const name of ['slow_leaf', 'fast_leaf']) {
        expect(c[name]!.succeeded).toBeGreaterThan(0);
        expect(c[name]!.maxRequeueWaitMs).toBeGreaterThan(0);
        expect(c[name]!.maxRequeueWaitMs).toBeLessThanOrEqual(BOUND_MS);
      }
      expect(c['intermediate']!.succeeded).toBeGreaterThan(0);
      expect(c['fast_leaf']!.latencyMs.p50).toBeLessThan(c['slow_leaf']!.latencyMs.p50);
      expect(report.trino!.completedTasks).toBe(
        c['slow_leaf']!.succeeded + c['fast_leaf']!.succeeded + c['intermediate']!.succeeded,
      );
    },
  );

  it(
    'overloaded cluster: every class accrues time and completes tasks; no ready leaf waits long',
    { timeout: 60_000 },
    async () => {
      // The first 3 of Trino's 20.5 minutes. Ready leaf splits are at most (16 + 16 tasks) × 3
      // outstanding = 96; with the bound argument of starve-slow: 96 × 1 s / (36/31) + 15 s ≈ 98 s.
      const BOUND_MS = (96 * 1000) / (36 / 31) + 15_000;
      const { report } = await runWorkload(loadPreset('trino-overloaded'), {
        durationMs: 3 * 60 * S,
      });
      for (const name of ['leaf', 'slow_leaf', 'intermediate']) {
        const c = report.classes[name]!;
        expect(c.scheduledMs, name).toBeGreaterThan(0);
        expect(c.succeeded, name).toBeGreaterThan(0);
      }
      for (const name of ['leaf', 'slow_leaf']) {
        expect(report.classes[name]!.maxRequeueWaitMs).toBeLessThanOrEqual(BOUND_MS);
      }
    },
  );
});
