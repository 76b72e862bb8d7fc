// Scenarios: Trino's simulator experiments (docs/design.md §9) on our simulator.
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../../core/workload/presets/index.ts';
import type { RunReport } from '../report.ts';
import { runWorkload } from '../run-workload.ts';

const S = 1000;
const MIN = 60 * S;
/** Mean of Trino's leaf per-call distribution (docs/design.md §9), and its 3–15 s band's top. */
const MEAN_CALL_MS = 950;
const LONGEST_CALL_MS = 15 * S;

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
    'misbehaving quanta, all 40 minutes: quantum overruns do not change accrued time shares (±15%)',
    { timeout: 60_000 },
    async () => {
      const { report } = await runWorkload(loadPreset('trino-misbehaving-quanta'));
      expect(report.stoppedAtMs).toBe(40 * MIN);
      const good = report.classes['good_leaf']!;
      const bad = report.classes['bad_leaf']!;
      // The bad leaves' 1–200 s calls overran the 1 s quantum by hours in all…
      expect(report.counters.overrunMs).toBeGreaterThan(3600 * S);
      // …yet both classes accrued the same time, and both kept completing tasks.
      expect(good.scheduledMs / bad.scheduledMs).toBeGreaterThanOrEqual(0.85);
      expect(good.scheduledMs / bad.scheduledMs).toBeLessThanOrEqual(1.15);
      expect(good.succeeded).toBeGreaterThan(10);
      expect(bad.succeeded).toBeGreaterThan(10);
    },
  );

  it(
    'starve slow splits, all 20 minutes: short tasks finish faster; no wait exceeds the derived bound',
    { timeout: 60_000 },
    async () => {
      // docs/trino-experiments.md derives the bound: a ready split at level L waits at most one
      // round of its level's queue at the level's share of the runners, plus one call in flight.
      const { report } = await runWorkload(loadPreset('trino-starve-slow'));
      expect(report.stoppedAtMs).toBe(20 * MIN);
      const bound = Math.max(...report.levels.map((l) => roundBoundMs(report, l.level)));
      const c = report.classes;
      for (const name of ['slow_leaf', 'intermediate', 'fast_leaf']) {
        expect(c[name]!.succeeded, name).toBeGreaterThan(0);
        expect(c[name]!.waitMs!.max, name).toBeGreaterThan(0);
        expect(c[name]!.waitMs!.max, name).toBeLessThanOrEqual(bound);
        // Trino's expectation: no starvation beyond a couple of minutes.
        expect(c[name]!.waitMs!.max, name).toBeLessThanOrEqual(2 * MIN);
      }
      expect(c['fast_leaf']!.succeeded).toBe(600);
      expect(c['fast_leaf']!.latencyMs.p50).toBeLessThan(c['slow_leaf']!.latencyMs.p50 / 1.5);
      expect(report.trino!.completedTasks).toBe(
        c['slow_leaf']!.succeeded + c['fast_leaf']!.succeeded + c['intermediate']!.succeeded,
      );
    },
  );

  it(
    'overloaded cluster, all 20.5 minutes: every class accrues time; none waits disproportionately',
    { timeout: 60_000 },
    async () => {
      const { report } = await runWorkload(loadPreset('trino-overloaded'));
      expect(report.stoppedAtMs).toBe(30 * S + 20 * MIN);
      const names = ['leaf', 'slow_leaf', 'intermediate'];
      const total = names.reduce((n, name) => n + report.classes[name]!.scheduledMs, 0);
      const bound = Math.max(...report.levels.map((l) => roundBoundMs(report, l.level)));
      for (const name of names) {
        const c = report.classes[name]!;
        expect(c.scheduledMs / total, name).toBeGreaterThan(0.05);
        expect(c.succeeded, name).toBeGreaterThan(10);
        expect(c.waitMs!.max, name).toBeLessThanOrEqual(bound);
      }
      // Disproportionate (docs/trino-experiments.md): a class's longest wait more than twice
      // another's. Each class's longest wait is one round of a busy level, so they are alike.
      const longest = names.map((name) => report.classes[name]!.waitMs!.max);
      expect(Math.max(...longest) / Math.min(...longest)).toBeLessThanOrEqual(2);
    },
  );
});

/**
 * The longest wait of a ready split at `level` (docs/trino-experiments.md): one round of the
 * level's queue (its deepest, as sampled, × Trino's mean call of 0.95 s) at the level's share of
 * the runners, m^-L / Σ m^-l with every level busy, plus one call in flight (≤ 15 s).
 */
function roundBoundMs(report: RunReport, level: number): number {
  const { workers, levelTimeMultiplier: m } = report.config;
  const share = m ** -level / [0, 1, 2, 3, 4].reduce((sum, l) => sum + m ** -l, 0);
  const depth = report.levels[level]?.maxDepth ?? 0;
  return (depth * MEAN_CALL_MS) / (workers * share) + LONGEST_CALL_MS;
}
