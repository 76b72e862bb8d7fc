import { describe, expect, it } from 'vitest';
import type { CompareReportRow } from '../../../shared/protocol.ts';
import { bucketOf } from '../../../shared/lib/histogram.ts';
import { compareCdfs, compareSeriesRows } from './compare-series.ts';

function row(label: string, latMs: number[]): CompareReportRow {
  const buckets: number[] = [];
  for (const ms of latMs) buckets.push(bucketOf(ms * 1000), 1);
  return {
    label,
    series: {
      labels: ['L0', 'L1'],
      tMs: [0, 100, 200],
      depth: [
        [1, 0],
        [3, 2],
        [0, 1],
      ],
      chargedMs: [
        [0, 0],
        [30, 10],
        [30, 60],
      ],
    },
    latencyBuckets: {
      q: { maxNanos: Math.max(...latMs) * 1e6, sumNanos: 0, buckets },
    },
  } as unknown as CompareReportRow;
}

describe('compare, richer', () => {
  it('series rows: depth per level and each level’s share of the time charged in each step', () => {
    const s = compareSeriesRows(row('a', [1]))!;
    expect(s.rows[1]).toMatchObject({ t: 0.1, L0: 3, L1: 2, 'share:L0': 75, 'share:L1': 25 });
    expect(s.rows[2]).toMatchObject({ 'share:L0': 0, 'share:L1': 100 });
  });

  it('one CDF line per config for each class, ending at 1, with its percentiles', () => {
    const cdfs = compareCdfs([row('a', [1, 2, 3, 4]), row('b', [10, 20])]);
    expect(cdfs.map((c) => c.cls)).toEqual(['q']);
    expect(cdfs[0]!.lines.map((l) => [l.config, l.n])).toEqual([
      [0, 4],
      [1, 2],
    ]);
    expect(cdfs[0]!.lines[1]!.cdf.at(-1)!.frac).toBe(1);
    expect(cdfs[0]!.lines[1]!.p95).toBe(20);
  });
});
