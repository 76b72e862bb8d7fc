/**
 * Latency and wait over a time range, from the samples each frame carries (`Frame.samples`, the
 * shared histogram's buckets): the tables' percentiles recomputed, and each key's distribution
 * (CDF) with p50/p95/p99. A point at `tMs` holds what was recorded since the point before it, so
 * a range [from, to] sums the points with `from < tMs ≤ to` — samples that *ended* in the range
 * (a wait still in progress is not in it; the live table counts those too). docs/metrics.md.
 */
import type { Percentiles } from '../../../shared/protocol.ts';
import {
  bucketLowerUs,
  bucketUpperUs,
  LogHistogram,
  percentileMs,
  type BucketCounts,
  type SampleCounts,
} from '../../../shared/lib/histogram.ts';
import type { FramePoint } from './telemetry.ts';

export type SampleKind = 'latency' | 'wait';
export type SampleKey = 'byClass' | 'byBand';

/** A selected time range in engine ms. */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** One key's samples summed over a range. */
export interface RangeSummary {
  hist: LogHistogram;
  count: number;
  maxNanos: number;
  sumNanos: number;
}

/** The points whose samples fall in the range (`from < tMs ≤ to`), oldest first. */
export function pointsIn(points: readonly FramePoint[], range: TimeRange): FramePoint[] {
  return points.filter((p) => p.tMs > range.fromMs && p.tMs <= range.toMs);
}

/** Each key's histogram summed over the points (keys sorted by name, as the live tables). */
export function rangeSummaries(
  points: readonly FramePoint[],
  kind: SampleKind,
  by: SampleKey,
): Map<string, RangeSummary> {
  const out = new Map<string, RangeSummary>();
  for (const p of points) {
    const table: SampleCounts | undefined = p.samples?.[kind];
    if (table === undefined) continue;
    for (const [key, c] of Object.entries(table[by])) {
      let s = out.get(key);
      if (s === undefined) {
        s = { hist: new LogHistogram(), count: 0, maxNanos: 0, sumNanos: 0 };
        out.set(key, s);
      }
      for (let i = 0; i + 1 < c.buckets.length; i += 2) {
        const n = c.buckets[i + 1]!;
        s.hist.add(c.buckets[i]!, n);
        s.count += n;
      }
      s.sumNanos += c.sumNanos;
      if (c.maxNanos > s.maxNanos) s.maxNanos = c.maxNanos;
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** One key's bucket counts (a compare run's class latency) as a summary to read or draw. */
export function summaryOf(c: BucketCounts): RangeSummary {
  const s: RangeSummary = {
    hist: new LogHistogram(),
    count: 0,
    maxNanos: c.maxNanos,
    sumNanos: c.sumNanos,
  };
  for (let i = 0; i + 1 < c.buckets.length; i += 2) {
    s.hist.add(c.buckets[i]!, c.buckets[i + 1]!);
    s.count += c.buckets[i + 1]!;
  }
  return s;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Percentiles (ms) as the live tables write them, from a range's summed histogram. */
export function summaryPercentiles(s: RangeSummary): Percentiles {
  if (s.count === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const at = (p: number) => round3(percentileMs(s.hist, s.count, p, s.maxNanos));
  return {
    count: s.count,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: round3(s.maxNanos / 1e6),
    mean: round3(s.sumNanos / s.count / 1e6),
  };
}

/** The latency or wait table over the points, keyed like the frame's (per class or band). */
export function rangeTable(
  points: readonly FramePoint[],
  kind: SampleKind,
  by: SampleKey,
): Record<string, Percentiles> {
  const out: Record<string, Percentiles> = {};
  for (const [key, s] of rangeSummaries(points, kind, by)) out[key] = summaryPercentiles(s);
  return out;
}

/** True when some point in the list carries samples (a host that reports them). */
export function hasSamples(points: readonly FramePoint[]): boolean {
  return points.some((p) => p.samples !== null);
}

/** A CDF step: `frac` of the samples are at most `ms`. */
export interface CdfPoint {
  ms: number;
  frac: number;
}

/**
 * The CDF of a range's histogram: one step per non-empty bucket at its upper edge (a bucket's
 * samples are at most that), starting at the first bucket's lower edge with 0, and thinned to at
 * most `maxPoints` so a chart stays light however many buckets are filled.
 */
export function cdfOf(s: RangeSummary, maxPoints = 120): CdfPoint[] {
  if (s.count === 0) return [];
  const steps: CdfPoint[] = [];
  let seen = 0;
  let first = true;
  const maxMs = s.maxNanos / 1e6;
  s.hist.forEach((index, count) => {
    if (first) {
      steps.push({ ms: bucketLowerUs(index) / 1000, frac: 0 });
      first = false;
    }
    seen += count;
    steps.push({ ms: Math.min(bucketUpperUs(index) / 1000, maxMs), frac: seen / s.count });
  });
  if (steps.length <= maxPoints) return steps;
  const out: CdfPoint[] = [];
  const stride = (steps.length - 1) / (maxPoints - 1);
  for (let k = 0; k < maxPoints - 1; k++) out.push(steps[Math.round(k * stride)]!);
  out.push(steps.at(-1)!);
  return out;
}

/** A brushed range with its ends in order; null when narrower than `minWidthMs` (a click). */
export function normalizeRange(a: number, b: number, minWidthMs = 1): TimeRange | null {
  const fromMs = Math.min(a, b);
  const toMs = Math.max(a, b);
  if (!(toMs - fromMs >= minWidthMs)) return null;
  return { fromMs, toMs };
}

/**
 * How far back the app can look: from the oldest point (and span) it still holds to the newest,
 * in ms; 0 before any frame. The rings are bounded, so this is what scroll-back can reach.
 */
export function heldSpanMs(points: readonly { tMs: number }[], oldestSpanMs?: number): number {
  const last = points.at(-1);
  if (last === undefined) return 0;
  let first = points[0]!.tMs;
  if (oldestSpanMs !== undefined && oldestSpanMs < first) first = oldestSpanMs;
  return Math.max(0, last.tMs - first);
}
