/**
 * Chart rows derived from the rings on demand (at most a few times a second), never stored.
 */
import type { Telemetry, FramePoint } from './telemetry.ts';
import { chargedShareWindow, type ShareWindow } from './target-share.ts';

/** The points of the last `windowMs` (by engine time, whatever the frame rate), oldest first. */
export function windowPoints(t: Telemetry, windowMs: number): FramePoint[] {
  const last = t.points.last();
  if (last === undefined) return [];
  let k = t.points.size - 1;
  while (k > 0 && t.points.at(k - 1)!.tMs >= last.tMs - windowMs) k--;
  return t.points.tail(t.points.size - k);
}

/**
 * The share panel's rows: charged share per level over the last `windowMs`, with the multilevel
 * queue's target when the latest point is under mlfq (see `chargedShareWindow`).
 */
export function levelShares(
  t: Telemetry,
  windowMs: number,
  multiplier: number,
): ShareWindow | null {
  const points = windowPoints(t, windowMs);
  const mlfq = t.points.last()?.policy === 'mlfq';
  return chargedShareWindow(points, windowMs, multiplier, mlfq);
}

/** Per-level selections per second between the oldest and newest point in the window. */
export function selectionRates(points: readonly FramePoint[]): { level: string; rate: number }[] {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return [];
  const dt = (last.tMs - first.tMs) / 1000;
  return last.selections.map((s, l) => ({
    level: `L${l}`,
    rate: dt > 0 ? Math.max(0, s - (first.selections[l] ?? 0)) / dt : 0,
  }));
}

/** Depth series rows for a line chart: `{t, L0, L1, …}` with t in seconds. */
export function depthSeries(points: readonly FramePoint[]): Record<string, number>[] {
  return points.map((p) => {
    const row: Record<string, number> = {
      t: p.tMs / 1000,
      util: Math.round(p.utilization * 1000) / 10,
    };
    p.depth.forEach((d, l) => (row[`L${l}`] = d));
    return row;
  });
}
