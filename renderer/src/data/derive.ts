/**
 * Chart rows derived from the rings on demand (at most a few times a second), never stored.
 */
import type { Telemetry, FramePoint } from './telemetry.ts';
import { actualShares, targetShares } from './target-share.ts';

export interface ShareRow {
  level: string;
  actual: number;
  target: number;
}

/**
 * Per-level share of scheduled time over the last `windowMs` (from the spans that actually ran,
 * clipped to the window) next to the share the multiplier targets among busy levels. A level is
 * busy when it had queued splits or ran anything in the window.
 */
export function levelShares(
  t: Telemetry,
  windowMs: number,
  multiplier: number,
  levels: number,
): ShareRow[] {
  const now = t.nowMs;
  const from = now - windowMs;
  const ran = new Array<number>(levels).fill(0);
  const ring = t.spans;
  for (let k = ring.firstEndingAfter(from); k < ring.size; k++) {
    const i = ring.slot(k);
    const s = Math.max(ring.start[i]!, from);
    const e = Math.min(ring.end[i]!, now);
    const l = ring.level[i]!;
    if (e > s && l >= 0 && l < levels) ran[l]! += e - s;
  }
  const busy = ran.map((r) => r > 0);
  for (let k = t.points.size - 1; k >= 0; k--) {
    const p = t.points.at(k)!;
    if (p.tMs < from) break;
    p.depth.forEach((d, l) => {
      if (d > 0 && l < levels) busy[l] = true;
    });
  }
  const actual = actualShares(ran);
  const target = targetShares(multiplier, busy);
  return ran.map((_, l) => ({ level: `L${l}`, actual: actual[l]!, target: target[l]! }));
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
