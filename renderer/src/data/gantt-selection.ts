/**
 * The Gantt with a job selected: every other span is dimmed under a veil and the selected job's
 * spans in view are drawn again on top, outlined, so they stand out at any zoom. One pass over
 * the spans in the window and one path per colour: the cost of a frame stays a handful of fills.
 */
import type { GanttSpans } from './gantt-spans.ts';

export interface SelectionDraw {
  /** The plot: x from `left` to `right`, lanes' tops and their bar geometry. */
  left: number;
  right: number;
  top: number;
  bottom: number;
  laneTop: readonly number[];
  barInset: number;
  barH: number;
  lanes: number;
  t0: number;
  pxPerMs: number;
  /** Colour of each ring slot (index into `palette`). */
  colors: ArrayLike<number>;
  palette: readonly string[];
  veil: string;
  outline: string;
  mixed: string;
}

/** Draws the veil and the selected job's spans; returns how many of its spans are in view. */
export function drawSelection(
  ctx: CanvasRenderingContext2D,
  ring: GanttSpans,
  jobId: number,
  t1: number,
  d: SelectionDraw,
): number {
  ctx.globalAlpha = 0.7;
  ctx.fillStyle = d.veil;
  ctx.fillRect(d.left, d.top, d.right - d.left, d.bottom - d.top);
  ctx.globalAlpha = 1;
  const byColor = new Map<number, number[]>();
  let shown = 0;
  for (let k = ring.firstEndingAfter(d.t0); k < ring.size; k++) {
    const i = ring.slot(k);
    if (ring.job[i] !== jobId) continue;
    const s = ring.start[i]!;
    const e = ring.end[i]!;
    const lane = ring.worker[i]!;
    if (e < d.t0 || s > t1 || lane < 0 || lane >= d.lanes) continue;
    const x0 = d.left + (Math.max(s, d.t0) - d.t0) * d.pxPerMs;
    const x1 = d.left + (Math.min(e, t1) - d.t0) * d.pxPerMs;
    const c = d.colors[i] ?? 0;
    let list = byColor.get(c);
    if (list === undefined) byColor.set(c, (list = []));
    list.push(x0, d.laneTop[lane]! + d.barInset, Math.max(1.5, x1 - x0));
    shown++;
  }
  ctx.strokeStyle = d.outline;
  ctx.lineWidth = 1;
  for (const [c, list] of byColor) {
    ctx.fillStyle = d.palette[c] ?? d.mixed;
    ctx.beginPath();
    for (let j = 0; j < list.length; j += 3) ctx.rect(list[j]!, list[j + 1]!, list[j + 2]!, d.barH);
    ctx.fill();
    ctx.stroke();
  }
  return shown;
}
