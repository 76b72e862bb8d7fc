/**
 * Which points a time chart draws: while following live, the newest `livePoints` (the last
 * 60 s at 10 Hz); with a range selected, the range with a quarter of its width of context on
 * each side, from anywhere in the history ring — that is how the charts scroll back.
 */
import type { TimeRange } from './range-stats.ts';

/** Points a live chart draws: 60 s at 10 Hz. */
export const LIVE_POINTS = 600;

/** The x window (engine ms) a chart draws for a range: the range plus context either side. */
export function rangeView(range: TimeRange): TimeRange {
  const pad = (range.toMs - range.fromMs) / 4;
  return { fromMs: range.fromMs - pad, toMs: range.toMs + pad };
}

export function chartPoints<T extends { tMs: number }>(
  all: readonly T[],
  range: TimeRange | null,
  livePoints = LIVE_POINTS,
): T[] {
  if (range === null) return all.slice(Math.max(0, all.length - livePoints));
  const view = rangeView(range);
  return all.filter((p) => p.tMs >= view.fromMs && p.tMs <= view.toMs);
}

/**
 * A range moved by `fraction` of its width (−1: one width earlier), kept inside what is held
 * (`oldestMs`…`newestMs`) without changing its width where the history is long enough.
 */
export function shiftRange(
  range: TimeRange,
  fraction: number,
  oldestMs: number,
  newestMs: number,
): TimeRange {
  const width = range.toMs - range.fromMs;
  let from = range.fromMs + fraction * width;
  from = Math.min(from, newestMs - width);
  from = Math.max(from, oldestMs);
  return { fromMs: from, toMs: from + width };
}
