import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { MAX_POINTS, RunSeries } from './run-series.ts';
import { runWorkload } from './run-workload.ts';

describe('a compare run’s series', () => {
  it('stays bounded and still covers the whole run evenly', () => {
    const s = new RunSeries(0, 1);
    for (let k = 0; k < 5000; k++) {
      s.add(k * 100e6, [{ label: 'L0', depth: k, scheduledNanos: k * 1e6 }]);
    }
    const w = s.toWire();
    expect(w.tMs.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(w.tMs.length).toBeGreaterThan(MAX_POINTS / 2);
    expect(w.tMs[0]).toBe(0);
    expect(w.tMs.at(-1)!).toBeGreaterThan(400_000);
    const gaps = w.tMs.slice(1).map((t, i) => t - w.tMs[i]!);
    expect(new Set(gaps).size).toBe(1);
    expect(w.depth.length).toBe(w.tMs.length);
  });

  it('a run asked for its series gives depth per level and each class’s latency buckets', async () => {
    const { report, series, latencyBuckets } = await runWorkload(
      loadPreset('interactive-vs-scan'),
      { backend: 'sim', durationMs: 5000, series: true },
    );
    expect(series!.labels.length).toBe(report.levels.length);
    expect(series!.tMs.length).toBeGreaterThan(10);
    const interactive = latencyBuckets!['interactive']!;
    let n = 0;
    for (let i = 1; i < interactive.buckets.length; i += 2) n += interactive.buckets[i]!;
    expect(n).toBe(report.classes['interactive']!.succeeded);
  });
});
