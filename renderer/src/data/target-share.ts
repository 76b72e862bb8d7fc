/**
 * What the multilevel queue promises (docs/design.md §3.1): in steady state each busy level gets m
 * times the scheduled time of the next busy one, so the target share of level L is proportional
 * to m^-L among the levels that have work. Idle levels get no share.
 */
export function targetShares(multiplier: number, busy: readonly boolean[]): number[] {
  const weights = busy.map((b, level) => (b ? Math.pow(multiplier, -level) : 0));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (total === 0 ? 0 : w / total));
}

/** Actual shares from scheduled-time deltas over a window; all zero when nothing ran. */
export function actualShares(deltas: readonly number[]): number[] {
  const total = deltas.reduce((a, b) => a + Math.max(0, b), 0);
  return deltas.map((d) => (total === 0 ? 0 : Math.max(0, d) / total));
}

/** What a share window reads of each frame point (see `FramePoint` in telemetry.ts). */
export interface SharePoint {
  /** The frame's `seq`, where known: which two frames a window's figures come from. */
  seq?: number;
  tMs: number;
  policy: string | null;
  labels: readonly string[] | null;
  depth: readonly number[];
  chargedMs: readonly number[] | null;
  /** PRIO: cumulative aging boosts per band; null (or absent) elsewhere. */
  agingBoosts?: readonly number[] | null;
}

export interface ShareRow {
  label: string;
  /** Share of the charged time in the window, 0..1; null when the host reports no charged time. */
  charged: number | null;
  /** m^-L share among the levels that had work in the window; null when there is no target. */
  target: number | null;
  /** Had queued splits or was charged time within the window. */
  busy: boolean;
  /** PRIO: aging boosts given within the window (docs/metrics.md); null where not reported. */
  boosts: number | null;
}

export interface ShareWindow {
  rows: ShareRow[];
  /** Time between the window's two ends actually held (less than asked after a switch or reload). */
  coveredMs: number;
  /** False when the frames carry no `chargedNanos` (the host does not report charged time). */
  reported: boolean;
  /** The `seq` of the frames at the window's two ends (null where points carry none). */
  fromSeq: number | null;
  toSeq: number | null;
}

/** Same policy and same levels: a point is comparable with the latest one. */
function sameUnits(a: SharePoint, b: SharePoint): boolean {
  if (a.policy !== b.policy) return false;
  const la = a.labels;
  const lb = b.labels;
  if (la === null || lb === null) return la === lb && a.depth.length === b.depth.length;
  return la.length === lb.length && la.every((l, i) => l === lb[i]);
}

/** A counter went down between two points (a reset): the window cannot reach across it. */
function wentDown(older: SharePoint, newer: SharePoint): boolean {
  const a = older.chargedMs;
  const b = newer.chargedMs;
  return a !== null && b !== null && b.some((v, l) => v < (a[l] ?? 0));
}

/**
 * The charged share per level over the last `windowMs`: the difference of the cumulative charged
 * time between the window's two ends, next to the target (`targetShares`) among the levels that
 * were non-empty in the window — queued splits at any point of it, or charged time within it.
 * The window never reaches back across a policy switch, a change of levels or a counter reset,
 * so its numbers always compare like with like. `withTarget` is false for policies that promise
 * no share (everything but mlfq).
 */
export function chargedShareWindow(
  points: readonly SharePoint[],
  windowMs: number,
  multiplier: number,
  withTarget: boolean,
): ShareWindow | null {
  const last = points.at(-1);
  if (last === undefined) return null;
  let firstIdx = points.length - 1;
  for (let k = points.length - 2; k >= 0; k--) {
    const p = points[k]!;
    if (p.tMs < last.tMs - windowMs || !sameUnits(p, last) || wentDown(p, points[k + 1]!)) break;
    firstIdx = k;
  }
  const first = points[firstIdx]!;
  const n = last.depth.length;
  const busy = new Array<boolean>(n).fill(false);
  for (let k = firstIdx; k < points.length; k++) {
    points[k]!.depth.forEach((d, l) => {
      if (d > 0 && l < n) busy[l] = true;
    });
  }
  const reported = first.chargedMs !== null && last.chargedMs !== null;
  let charged: number[] | null = null;
  if (reported) {
    const deltas = last.chargedMs!.map((v, l) => v - (first.chargedMs![l] ?? 0));
    deltas.forEach((d, l) => {
      if (d > 0 && l < n) busy[l] = true;
    });
    charged = actualShares(deltas);
  }
  const target = withTarget ? targetShares(multiplier, busy) : null;
  const labels = last.labels ?? busy.map((_, l) => `L${l}`);
  const boostsFirst = first.agingBoosts ?? null;
  const boostsLast = last.agingBoosts ?? null;
  return {
    rows: busy.map((b, l) => ({
      label: labels[l] ?? `L${l}`,
      charged: charged === null ? null : (charged[l] ?? 0),
      target: target === null ? null : target[l]!,
      busy: b,
      boosts:
        boostsFirst === null || boostsLast === null
          ? null
          : (boostsLast[l] ?? 0) - (boostsFirst[l] ?? 0),
    })),
    coveredMs: last.tMs - first.tMs,
    reported,
    fromSeq: first.seq ?? null,
    toSeq: last.seq ?? null,
  };
}

/** One line for the panel: what "target" means. */
export const TARGET_MEANING =
  'target: each level with work in the window gets m times the next one’s share (levels without work get none)';
