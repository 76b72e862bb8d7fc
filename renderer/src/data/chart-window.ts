/**
 * Which points a time chart draws: while following live, the last `LIVE_WINDOW_MS` of engine
 * time (frames come at 10 Hz of wall time, so on the simulator at 10× the last 600 frames held
 * 600 s under a "last 60 s" title); with a range selected, the range with a quarter of its width
 * of context on each side, from anywhere in the history ring — that is how the charts scroll
 * back, by the range bar's buttons or its scroll slider (`scrollRange`, `scrollPosition`).
 */
import type { Ring } from '../../../shared/lib/ring.ts';
import type { TimeRange } from './range-stats.ts';

/** Engine time a live chart draws: its title says "last 60 s". */
export const LIVE_WINDOW_MS = 60_000;

/** The x window (engine ms) a chart draws for a range: the range plus context either side. */
export function rangeView(range: TimeRange): TimeRange {
  const pad = (range.toMs - range.fromMs) / 4;
  return { fromMs: range.fromMs - pad, toMs: range.toMs + pad };
}

export function chartPoints<T extends { tMs: number }>(
  all: readonly T[],
  range: TimeRange | null,
  liveMs = LIVE_WINDOW_MS,
): T[] {
  // At least two points, so a line is drawn where frames are sparser than the window (at 100×
  // or `max`, a frame can be more than 60 s of engine time after the one before).
  if (range === null)
    return all.slice(Math.max(0, Math.min(firstWithin(all, liveMs), all.length - 2)));
  const view = rangeView(range);
  return all.filter((p) => p.tMs >= view.fromMs && p.tMs <= view.toMs);
}

/**
 * The newest points spanning `ms` of engine time, and the one before them, so a rate over them
 * covers at least that long (at 100× a frame is 10 s apart: without it, no rate at all).
 */
export function lastSpan<T extends { tMs: number }>(all: readonly T[], ms: number): T[] {
  return all.slice(Math.max(0, firstWithin(all, ms) - 1));
}

/**
 * `lastSpan` of a whole ring, copying only the points it returns. Taken by engine time, not by a
 * count of frames: while paused, frames keep coming with one engine time, and any fixed tail of
 * them would soon span nothing.
 */
export function lastSpanOf<T extends { tMs: number }>(ring: Ring<T>, ms: number): T[] {
  const from = Math.max(0, firstWithinAt(ring.size, (i) => ring.at(i)!, ms) - 1);
  return ring.tail(ring.size - from);
}

/** The index of the first point less than `ms` older than the newest (points in time order). */
function firstWithin(all: readonly { tMs: number }[], ms: number): number {
  return firstWithinAt(all.length, (i) => all[i]!, ms);
}

function firstWithinAt(size: number, at: (i: number) => { tMs: number }, ms: number): number {
  if (size === 0) return 0;
  const from = at(size - 1).tMs - ms;
  let lo = 0;
  let hi = size - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid).tMs > from) hi = mid;
    else lo = mid + 1;
  }
  return lo;
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

/** Scroll positions the range bar's slider has: 0 is the oldest point held, this the newest. */
export const SCROLL_STEPS = 1000;

/**
 * The range at scroll `position` (0: starting at the oldest point held, 1: ending at the newest),
 * `widthMs` wide or, when less is held, all of it.
 */
export function scrollRange(
  position: number,
  widthMs: number,
  oldestMs: number,
  newestMs: number,
): TimeRange {
  const held = Math.max(0, newestMs - oldestMs);
  const width = Math.min(widthMs, held);
  const p = Math.min(1, Math.max(0, position));
  const fromMs = oldestMs + p * (held - width);
  return { fromMs, toMs: fromMs + width };
}

/** Where a range sits on the scroll (the inverse of `scrollRange`); following live is 1. */
export function scrollPosition(
  range: TimeRange | null,
  oldestMs: number,
  newestMs: number,
): number {
  if (range === null) return 1;
  const free = newestMs - oldestMs - (range.toMs - range.fromMs);
  if (free <= 0) return 1;
  return Math.min(1, Math.max(0, (range.fromMs - oldestMs) / free));
}

/** How much engine time the history ring holds, as the range bar says it: `history: 4.2 min`. */
export function historyText(heldMs: number): string {
  const min = heldMs / 60_000;
  return `history: ${min >= 10 ? min.toFixed(0) : min.toFixed(1)} min`;
}
