/**
 * Chart rows derived from the rings on demand (at most a few times a second), never stored.
 */
import type { Telemetry, FramePoint } from './telemetry.ts';
import { chargedShareWindow, type ShareWindow } from './target-share.ts';
import type { TimeRange } from './range-stats.ts';

/**
 * The points of the last `windowMs` (by engine time, whatever the frame rate), oldest first, and
 * the one before them when none lies on the window's start: a difference over them covers at
 * least the window. At 100× a frame is 10 s after the one before; a 5 s window held one point,
 * and every level's share read 0 %.
 */
export function windowPoints(t: Telemetry, windowMs: number): FramePoint[] {
  const last = t.points.last();
  if (last === undefined) return [];
  const from = last.tMs - windowMs;
  let k = t.points.size - 1;
  while (k > 0 && t.points.at(k - 1)!.tMs >= from) k--;
  if (k > 0 && t.points.at(k)!.tMs > from) k--;
  return t.points.tail(t.points.size - k);
}

/**
 * The points of a selected range, with the last point at or before its start (cumulative
 * counters are differenced from there), oldest first.
 */
export function rangePoints(t: Telemetry, range: TimeRange): FramePoint[] {
  const all = t.points.toArray();
  let k = all.findIndex((p) => p.tMs > range.fromMs);
  if (k < 0) return [];
  if (k > 0) k--;
  let end = k;
  while (end < all.length && all[end]!.tMs <= range.toMs) end++;
  return all.slice(k, end);
}

/**
 * The share panel's rows: charged share per level over the last `windowMs` (or over a selected
 * range), with the multilevel queue's target when the newest point is under mlfq (see
 * `chargedShareWindow`).
 */
export function levelShares(
  t: Telemetry,
  windowMs: number,
  multiplier: number,
  range: TimeRange | null = null,
): ShareWindow | null {
  const points = range === null ? windowPoints(t, windowMs) : rangePoints(t, range);
  // A range's points already run from the last one at or before its start: all of them count.
  // (Its width dropped that anchor whenever it lay further before the start than the last point
  // lay before the end, so the share began a frame late.) So do a window's, which may reach one
  // frame before it (`windowPoints`).
  const mlfq = points.at(-1)?.policy === 'mlfq';
  return chargedShareWindow(points, Number.POSITIVE_INFINITY, multiplier, mlfq);
}

/** The labels a point was taken under (`L0`… from a host that does not report them). */
export function pointLabels(p: FramePoint): string[] {
  return p.labels ?? p.depth.map((_, l) => `L${l}`);
}

function sameSegment(a: FramePoint, b: FramePoint): boolean {
  const la = pointLabels(a);
  const lb = pointLabels(b);
  return a.policy === b.policy && la.length === lb.length && la.every((l, i) => l === lb[i]);
}

/**
 * Selections per second of each level (band, queue) of the latest point, between the oldest and
 * newest point of the window that were taken under the same policy and levels: a policy switch
 * starts a new segment instead of subtracting one policy's counters from another's.
 */
export function selectionRates(points: readonly FramePoint[]): { level: string; rate: number }[] {
  const last = points.at(-1);
  if (last === undefined) return [];
  let first = last;
  for (let k = points.length - 2; k >= 0; k--) {
    const p = points[k]!;
    if (!sameSegment(p, last) || p.selections.some((s, l) => s > (last.selections[l] ?? 0))) break;
    first = p;
  }
  const dt = (last.tMs - first.tMs) / 1000;
  const labels = pointLabels(last);
  return last.selections.map((s, l) => ({
    level: labels[l] ?? `L${l}`,
    rate: dt > 0 ? Math.max(0, s - (first.selections[l] ?? 0)) / dt : 0,
  }));
}

/**
 * Depth series rows for a line chart, `{t, util, <label>: depth}` with t in seconds, keyed by
 * the label each point was taken under: after a policy switch the past keeps its own levels and
 * the new policy's series start where it did. `series` lists every label, first seen first.
 */
export function depthSeries(points: readonly FramePoint[]): {
  rows: Record<string, number>[];
  series: string[];
} {
  const series: string[] = [];
  const seen = new Set<string>();
  const rows = points.map((p) => {
    const row: Record<string, number> = {
      t: p.tMs / 1000,
      util: Math.round(p.utilization * 1000) / 10,
    };
    const labels = pointLabels(p);
    p.depth.forEach((d, l) => {
      const key = labels[l] ?? `L${l}`;
      row[key] = d;
      if (!seen.has(key)) {
        seen.add(key);
        series.push(key);
      }
    });
    return row;
  });
  return { rows, series };
}

/** A knob or policy change drawn on a time chart: x in seconds, a short label. */
export interface ChartMark {
  t: number;
  label: string;
  /** The whole change (`kind: detail`), shown when the mark is hovered. */
  detail: string;
}

/**
 * The engine's events (policy switches, knob changes, pauses, workloads) inside a chart's x range
 * (seconds), for the vertical marks every time chart draws, like the Gantt does.
 */
export function chartMarks(
  markers: readonly { tMs: number; kind: string; detail: string }[],
  fromS: number,
  toS: number,
): ChartMark[] {
  const out: ChartMark[] = [];
  for (const m of markers) {
    const t = m.tMs / 1000;
    if (t < fromS || t > toS) continue;
    const text = m.detail.length > 24 ? `${m.detail.slice(0, 23)}…` : m.detail;
    out.push({ t, label: text, detail: `${m.kind}: ${m.detail}` });
  }
  return out;
}
