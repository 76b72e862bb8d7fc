import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';

describe('human summary', () => {
  it(
    "prints Trino's status lines, per-level and per-spec histograms and the per-spec table",
    { timeout: 30_000 },
    async () => {
      const { report } = await runWorkload(loadPreset('trino-starve-slow'), { durationMs: 60_000 });
      const text = formatReport(report);
      expect(text).toMatch(/^trino-starve-slow · sim · seed 1 · policy mlfq · 36 workers/);
      // A status line per simulated second (61 of them) is thinned to at most 40, last one kept.
      const status = text.split('\n').filter((l) => / s {2}splits \d+ \(running/.test(l));
      expect(status.length).toBeLessThanOrEqual(40);
      expect(status.at(-1)).toMatch(/^\s+60 s {2}splits/);
      expect(text).toMatch(/processed time by level\s+0\s+1s\s+10s\s+60s\s+300s\s+1h\s+1d\+/);
      expect(text).toMatch(/wait time by spec\s+0\s+1s/);
      const done = report.trino!.completedTasks;
      expect(done).toBeGreaterThan(0);
      expect(text).toContain(
        `completed tasks ${done}, remaining tasks ${report.trino!.remainingTasks}`,
      );
      // Every completed task lands in exactly one bucket of each histogram.
      const perLevel = report.trino!.byLevel.reduce(
        (n, g) => n + g.processedHistogram.reduce((a, b) => a + b, 0),
        0,
      );
      expect(perLevel).toBe(done);
      expect(text).toMatch(/fast_leaf\s+\d+\s+4\s/);
    },
  );
});

describe('the level table of a PRIO run', () => {
  it('has an aging boosts column with the report’s count per band', async () => {
    // 12 s: clean-up's first jobs have waited past agingAfterMs (its first arrival is drawn, not at 0).
    const { report } = await runWorkload(loadPreset('batch-service'), { durationMs: 12_000 });
    const text = formatReport(report);
    expect(text).toMatch(/level\s+charged\s+share\s+dispatched\s+selections\s+aging boosts/);
    const low = report.levels.at(-1)!;
    expect(low.agingBoosts).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`p80-100\\s.*\\s${low.agingBoosts}\\s*$`, 'm'));
  });
});
