import { describe, expect, it } from 'vitest';
import type { BucketCounts } from '../../../shared/lib/histogram.ts';
import { bucketOf } from '../../../shared/lib/histogram.ts';
import { chartPoints, shiftRange } from './chart-window.ts';
import {
  cdfOf,
  heldSpanMs,
  normalizeRange,
  pointsIn,
  rangeSummaries,
  rangeTable,
} from './range-stats.ts';
import type { FramePoint } from './telemetry.ts';

/** The buckets a host sends for these samples (ms). */
function counts(samplesMs: number[]): BucketCounts {
  const m = new Map<number, number>();
  for (const ms of samplesMs) m.set(bucketOf(ms * 1000), (m.get(bucketOf(ms * 1000)) ?? 0) + 1);
  const buckets = [...m].sort((a, b) => a[0] - b[0]).flat();
  return {
    maxNanos: Math.max(0, ...samplesMs) * 1e6,
    sumNanos: samplesMs.reduce((a, b) => a + b, 0) * 1e6,
    buckets,
  };
}

/** A point at `tMs` whose frame recorded these waits per class (and nothing else). */
function point(tMs: number, waits: Record<string, number[]>, band = 'p40-59'): FramePoint {
  const byClass: Record<string, BucketCounts> = {};
  for (const [k, v] of Object.entries(waits)) byClass[k] = counts(v);
  return {
    seq: tMs,
    tMs,
    depth: [0],
    levelMs: [0],
    selections: [0],
    utilization: 0,
    succeeded: 0,
    submitted: 0,
    live: 0,
    policy: 'mlfq',
    labels: ['L0'],
    chargedMs: null,
    agingBoosts: null,
    oldestWaitMs: null,
    samples: {
      latency: { byClass: {}, byBand: {} },
      wait: { byClass, byBand: { [band]: counts(Object.values(waits).flat()) } },
    },
  };
}

describe('ranges: the tables recomputed over a brushed range', () => {
  const points = [
    point(100, { a: [1, 2, 3] }),
    point(200, { a: [10, 20], b: [5] }),
    point(300, { a: [100], b: [50, 60] }),
    point(400, { b: [7] }),
  ];

  it('counts only the samples of frames inside the range (from < t ≤ to)', () => {
    const inRange = pointsIn(points, { fromMs: 100, toMs: 300 });
    expect(inRange.map((p) => p.tMs)).toEqual([200, 300]);
    const table = rangeTable(inRange, 'wait', 'byClass');
    expect(Object.keys(table)).toEqual(['a', 'b']);
    expect(table['a']!.count).toBe(3);
    expect(table['b']!.count).toBe(3);
    // The whole history counts everything.
    const all = rangeTable(points, 'wait', 'byClass');
    expect(all['a']!.count).toBe(6);
    expect(all['b']!.count).toBe(4);
  });

  it('percentiles are the histogram’s: never below the true value, within 0.8% above, max exact', () => {
    const a = rangeTable(points, 'wait', 'byClass')['a']!;
    // a: 1 2 3 10 20 100 → p50 is the 3rd (3 ms), p95 and p99 the 6th (100 ms).
    expect(a.p50).toBeGreaterThanOrEqual(3);
    expect(a.p50).toBeLessThanOrEqual(3 * 1.008);
    expect(a.p95).toBe(100);
    expect(a.max).toBe(100);
    expect(a.mean).toBeCloseTo(136 / 6, 3);
    // The band table holds the same samples as the classes together.
    const band = rangeTable(points, 'wait', 'byBand')['p40-59']!;
    expect(band.count).toBe(10);
  });

  it('an empty range, or a host without samples, gives an empty table', () => {
    expect(rangeTable(pointsIn(points, { fromMs: 400, toMs: 500 }), 'wait', 'byClass')).toEqual({});
    const bare = points.map((p) => ({ ...p, samples: null }));
    expect(rangeTable(bare, 'wait', 'byClass')).toEqual({});
  });

  it('the CDF rises to 1 at the max, in order, and stays light', () => {
    const s = rangeSummaries(points, 'wait', 'byClass').get('a')!;
    const cdf = cdfOf(s);
    expect(cdf[0]!.frac).toBe(0);
    expect(cdf.at(-1)).toEqual({ ms: 100, frac: 1 });
    for (let k = 1; k < cdf.length; k++) {
      expect(cdf[k]!.ms).toBeGreaterThanOrEqual(cdf[k - 1]!.ms);
      expect(cdf[k]!.frac).toBeGreaterThanOrEqual(cdf[k - 1]!.frac);
    }
    // Half the samples are at most 3 ms.
    expect(cdf.find((c) => c.frac >= 0.5)!.ms).toBeLessThanOrEqual(3 * 1.008);
    const wide = Array.from({ length: 2000 }, (_, i) => i + 1);
    const many = rangeSummaries([point(1, { w: wide })], 'wait', 'byClass').get('w')!;
    expect(cdfOf(many, 50).length).toBe(50);
    expect(cdfOf(many, 50).at(-1)!.frac).toBe(1);
  });
});

describe('ranges: brushing, chart windows and scroll-back', () => {
  it('a brush is ordered and a click (no width) selects nothing', () => {
    expect(normalizeRange(500, 200)).toEqual({ fromMs: 200, toMs: 500 });
    expect(normalizeRange(300, 300)).toBeNull();
  });

  it('live charts draw the newest window; a range draws itself with context from anywhere held', () => {
    const pts = Array.from({ length: 3000 }, (_, i) => ({ tMs: i * 100 }));
    expect(chartPoints(pts, null, 60_000).map((p) => p.tMs)).toEqual(
      pts.slice(2400).map((p) => p.tMs),
    );
    // Four minutes back, far outside the live 60 s: 10 s of range, 2.5 s context each side.
    const back = chartPoints(pts, { fromMs: 50_000, toMs: 60_000 });
    expect(back[0]!.tMs).toBe(47_500);
    expect(back.at(-1)!.tMs).toBe(62_500);
  });

  it('stepping a range keeps its width and stays within what is held', () => {
    const r = { fromMs: 20_000, toMs: 30_000 };
    expect(shiftRange(r, -1, 0, 300_000)).toEqual({ fromMs: 10_000, toMs: 20_000 });
    expect(shiftRange(r, -5, 5_000, 300_000)).toEqual({ fromMs: 5_000, toMs: 15_000 });
    expect(shiftRange(r, 50, 0, 100_000)).toEqual({ fromMs: 90_000, toMs: 100_000 });
  });

  it('says how far back the history reaches', () => {
    expect(heldSpanMs([])).toBe(0);
    expect(heldSpanMs([{ tMs: 1000 }, { tMs: 61_000 }])).toBe(60_000);
    expect(heldSpanMs([{ tMs: 1000 }, { tMs: 61_000 }], 500)).toBe(60_500);
  });
});
