/**
 * A comparison's runs over time, as chart rows: queue depth per level, and each level's share of
 * the time charged between two samples (the same share the live panel shows, `chargedShares`'s
 * definition over an interval), per config; and each class's latency CDF per config.
 */
import type { CompareReportRow } from '../../../shared/protocol.ts';
import { cdfOf, summaryOf, summaryPercentiles, type CdfPoint } from './range-stats.ts';

export interface SeriesRows {
  labels: string[];
  /** `{t (s), <label>: depth, share:<label>: %}` per sample. */
  rows: Record<string, number>[];
}

export function compareSeriesRows(r: CompareReportRow): SeriesRows | null {
  const s = r.series;
  if (s === undefined || s.tMs.length === 0) return null;
  const rows = s.tMs.map((t, i) => {
    const row: Record<string, number> = { t: t / 1000 };
    const depth = s.depth[i] ?? [];
    const now = s.chargedMs[i] ?? [];
    const before = i > 0 ? (s.chargedMs[i - 1] ?? []) : now.map(() => 0);
    const deltas = now.map((v, l) => Math.max(0, v - (before[l] ?? 0)));
    const total = deltas.reduce((a, b) => a + b, 0);
    s.labels.forEach((label, l) => {
      row[label] = depth[l] ?? 0;
      row[`share:${label}`] = total > 0 ? Math.round(((deltas[l] ?? 0) / total) * 1000) / 10 : 0;
    });
    return row;
  });
  return { labels: s.labels, rows };
}

export interface ClassCdf {
  cls: string;
  /** One line per config (index into reports): its CDF in ms and % and its p50/p95/p99. */
  lines: { config: number; cdf: CdfPoint[]; p50: number; p95: number; p99: number; n: number }[];
}

/** Each class's latency CDF in every config that has it, classes in first-seen order. */
export function compareCdfs(reports: readonly CompareReportRow[]): ClassCdf[] {
  const classes: string[] = [];
  for (const r of reports)
    for (const cls of Object.keys(r.latencyBuckets ?? {}))
      if (!classes.includes(cls)) classes.push(cls);
  return classes.map((cls) => ({
    cls,
    lines: reports.flatMap((r, config) => {
      const c = r.latencyBuckets?.[cls];
      if (c === undefined) return [];
      const s = summaryOf(c);
      if (s.count === 0) return [];
      const p = summaryPercentiles(s);
      return [{ config, cdf: cdfOf(s, 80), p50: p.p50, p95: p.p95, p99: p.p99, n: s.count }];
    }),
  }));
}
