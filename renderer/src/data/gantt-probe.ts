/**
 * Where a test can click a span: the Gantt is a canvas, so the browser specs cannot find a span
 * in the DOM. Each draw names the widest of the newest spans in view, by the same geometry the
 * click handler reads back (`laneGeometry`, the window's `t0…t1`), as `data-span-probe` on the
 * canvas. Only the newest `PROBE_SCAN` spans are looked at, so a draw costs no more for it. A
 * spec that wants a span of one class says which in `data-probe-class` (`onlyCls`).
 */
import { laneGeometry, type GanttLayout } from './gantt-draw.ts';
import type { GanttSpans } from './gantt-spans.ts';

export const PROBE_SCAN = 256;

export interface SpanProbe {
  /** CSS pixels from the canvas's top-left corner: the middle of the span's bar. */
  x: number;
  y: number;
  job: number;
  /** Index into the class-name table. */
  cls: number;
  /** The bar's width on screen (px). */
  width: number;
}

export function spanProbe(
  ring: GanttSpans,
  layout: GanttLayout,
  t0: number,
  t1: number,
  onlyCls: number | null = null,
): SpanProbe | null {
  const geo = laneGeometry(layout);
  const pxPerMs = Math.max(1, layout.width - layout.gutter) / Math.max(1e-9, t1 - t0);
  let best: SpanProbe | null = null;
  for (let k = ring.size - 1; k >= Math.max(0, ring.size - PROBE_SCAN); k--) {
    const i = ring.slot(k);
    const lane = ring.worker[i]!;
    const s = Math.max(ring.start[i]!, t0);
    const e = Math.min(ring.end[i]!, t1);
    if (e <= s || lane < 0 || lane >= layout.lanes) continue;
    if (onlyCls !== null && ring.cls[i] !== onlyCls) continue;
    const width = (e - s) * pxPerMs;
    if (best !== null && width <= best.width) continue;
    best = {
      x: layout.gutter + ((s + e) / 2 - t0) * pxPerMs,
      y: geo.top[lane]! + geo.laneH / 2,
      job: ring.job[i]!,
      cls: ring.cls[i]!,
      width,
    };
  }
  return best;
}
