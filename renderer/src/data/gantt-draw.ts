/**
 * Draws the Gantt: one lane per worker, only spans inside the window, sub-pixel spans merged
 * (span-merge.ts), rectangles batched by colour so a frame costs a handful of fills however many
 * quanta it shows, then knob-change markers and the time axis.
 */
import type { WorkerState } from '../../../shared/protocol.ts';
import type { InFlight } from './gantt-lanes.ts';
import { CATEGORICAL, categoricalIndex, LEVEL_COLORS } from './palette.ts';
import { LaneMerger, MIXED } from './span-merge.ts';
import type { SpanRing } from './span-ring.ts';
import type { Marker } from './telemetry.ts';
import { formatMs, tickStep } from './gantt-viewport.ts';
import type { ColorBy } from '../store/app-store.ts';

export interface GanttTheme {
  background: string;
  laneAlt: string;
  grid: string;
  text: string;
  marker: string;
  mixed: string;
}

export interface GanttLayout {
  width: number;
  height: number;
  gutter: number;
  axis: number;
  lanes: number;
  /** Each worker's state in the latest frame, shown as a dot. */
  workerStates?: readonly WorkerState[];
  /** Quanta running now, drawn up to now and marked in progress (`inFlightQuanta`). */
  inFlight?: readonly InFlight[];
  /** Per lane: when its worker left the pool, or null (`laneLayout`). */
  retiredFromMs?: readonly (number | null)[];
}

const STATE_COLORS: Record<WorkerState, string> = {
  running: '#4ade80',
  idle: '#8a93a3',
  retiring: '#fbbf24',
  starting: '#60a5fa',
};

export interface DrawResult {
  /** Spans inside the window (before merging). */
  visible: number;
  /** Rectangles actually filled. */
  rects: number;
  /** Quanta in flight drawn. */
  inFlight: number;
  /** Lanes drawn as retired. */
  retired: number;
  /** Spans inside the window per lane. */
  visibleByLane: number[];
}

const PALETTE_SIZE = CATEGORICAL.length;

export function laneHeight(l: GanttLayout): number {
  return (l.height - l.axis) / Math.max(1, l.lanes);
}

// Reused between frames: the draw loop allocates nothing per span.
const batches: number[][] = Array.from({ length: PALETTE_SIZE + 1 }, () => []);
let mergers: LaneMerger[] = [];
let mergerLane = 0;
let mergerY = 0;
let mergerH = 0;

function emit(x: number, w: number, color: number): void {
  const b = batches[color === MIXED ? PALETTE_SIZE : color]!;
  b.push(x, mergerY + mergerLane * mergerH, w, mergerH);
}

export function drawGantt(
  ctx: CanvasRenderingContext2D,
  ring: SpanRing,
  markers: readonly Marker[],
  layout: GanttLayout,
  t0: number,
  t1: number,
  colorBy: ColorBy,
  theme: GanttTheme,
): DrawResult {
  const { width, height, gutter, axis, lanes } = layout;
  const plotW = Math.max(1, width - gutter);
  const pxPerMs = plotW / Math.max(1e-9, t1 - t0);
  const laneH = laneHeight(layout);
  const barH = Math.max(1, laneH - Math.min(6, laneH * 0.25));

  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  for (let l = 0; l < lanes; l++) {
    if (l % 2 === 1) {
      ctx.fillStyle = theme.laneAlt;
      ctx.fillRect(gutter, axis + l * laneH, plotW, laneH);
    }
  }

  // Time grid.
  const step = tickStep(t1 - t0);
  ctx.strokeStyle = theme.grid;
  ctx.fillStyle = theme.text;
  ctx.lineWidth = 1;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const x = Math.round(gutter + (t - t0) * pxPerMs) + 0.5;
    ctx.moveTo(x, axis);
    ctx.lineTo(x, height);
    // A label that would run off the right edge is left out rather than cut.
    if (x + 48 < width) ctx.fillText(formatMs(t), x + 3, axis / 2);
  }
  ctx.stroke();

  // Spans.
  if (mergers.length < lanes) {
    mergers = Array.from(
      { length: lanes },
      (_, lane) =>
        new LaneMerger((x, w, c) => {
          mergerLane = lane;
          emit(x, w, c);
        }),
    );
  }
  for (const b of batches) b.length = 0;
  mergerY = axis + (laneH - barH) / 2;
  mergerH = laneH;
  let visible = 0;
  const visibleByLane = new Array<number>(lanes).fill(0);
  const n = ring.size;
  const colors =
    colorBy === 'level' ? ring.level : colorBy === 'class' ? ring.clsColor : ring.jobColor;
  const starts = ring.start;
  const ends = ring.end;
  const workers = ring.worker;
  for (let k = ring.firstEndingAfter(t0); k < n; k++) {
    const i = ring.slot(k);
    const s = starts[i]!;
    const e = ends[i]!;
    if (e < t0 || s > t1) continue;
    const lane = workers[i]!;
    if (lane < 0 || lane >= lanes) continue;
    visible++;
    visibleByLane[lane]!++;
    const x0 = gutter + (Math.max(s, t0) - t0) * pxPerMs;
    const x1 = gutter + (Math.min(e, t1) - t0) * pxPerMs;
    mergers[lane]!.add(x0, x1, colors[i]!);
  }
  for (let l = 0; l < lanes; l++) mergers[l]!.flush();

  let rects = 0;
  const palette = colorBy === 'level' ? LEVEL_COLORS : CATEGORICAL;
  for (let c = 0; c <= PALETTE_SIZE; c++) {
    const b = batches[c]!;
    if (b.length === 0) continue;
    ctx.fillStyle = c === PALETTE_SIZE ? theme.mixed : (palette[c] ?? theme.mixed);
    ctx.beginPath();
    for (let j = 0; j < b.length; j += 4) {
      // Lane y was recorded for the full lane height; inset to the bar.
      ctx.rect(b[j]!, b[j + 1]!, b[j + 2]!, barH);
      rects++;
    }
    ctx.fill();
  }

  // Quanta in flight: lighter, with a dashed outline, so "running now" never reads as finished.
  let inFlight = 0;
  ctx.lineWidth = 1;
  for (const q of layout.inFlight ?? []) {
    if (q.lane < 0 || q.lane >= lanes || q.endMs < t0 || q.startMs > t1) continue;
    const x0 = gutter + (Math.max(q.startMs, t0) - t0) * pxPerMs;
    const x1 = Math.max(x0 + 2, gutter + (Math.min(q.endMs, t1) - t0) * pxPerMs);
    const y = axis + q.lane * laneH + (laneH - barH) / 2;
    ctx.globalAlpha = 0.45;
    ctx.fillStyle =
      colorBy === 'job' && q.job !== null ? CATEGORICAL[categoricalIndex(q.job)]! : theme.mixed;
    ctx.fillRect(x0, y, x1 - x0, barH);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = theme.text;
    ctx.setLineDash([3, 2]);
    ctx.strokeRect(x0 + 0.5, y + 0.5, Math.max(1, x1 - x0 - 1), Math.max(1, barH - 1));
    ctx.setLineDash([]);
    inFlight++;
  }

  // Lanes of workers that left the pool: veiled from when they left, their past left visible.
  let retired = 0;
  layout.retiredFromMs?.forEach((from, lane) => {
    if (from === null || lane >= lanes || from > t1) return;
    retired++;
    const x0 = gutter + (Math.max(from, t0) - t0) * pxPerMs;
    ctx.globalAlpha = 0.7;
    ctx.fillStyle = theme.background;
    ctx.fillRect(x0, axis + lane * laneH, width - x0, laneH);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.text;
    if (x0 + 60 < width) ctx.fillText('retired', x0 + 6, axis + lane * laneH + laneH / 2);
  });

  // Knob-change markers.
  ctx.strokeStyle = theme.marker;
  ctx.fillStyle = theme.marker;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  for (const m of markers) {
    if (m.tMs < t0 || m.tMs > t1) continue;
    const x = Math.round(gutter + (m.tMs - t0) * pxPerMs) + 0.5;
    ctx.moveTo(x, axis);
    ctx.lineTo(x, height);
  }
  ctx.stroke();
  ctx.setLineDash([]);
  let labelEnd = -Infinity;
  for (const m of markers) {
    if (m.tMs < t0 || m.tMs > t1) continue;
    const x = Math.round(gutter + (m.tMs - t0) * pxPerMs);
    ctx.fillStyle = theme.marker;
    ctx.beginPath();
    ctx.moveTo(x - 4, axis);
    ctx.lineTo(x + 4, axis);
    ctx.lineTo(x, axis + 6);
    ctx.fill();
    // What changed, next to the line, unless it would overlap the previous label.
    const text = m.detail.length > 32 ? `${m.detail.slice(0, 31)}…` : m.detail;
    const w = ctx.measureText(text).width + 8;
    if (x + 4 > labelEnd && x + 4 + w < width) {
      ctx.fillStyle = theme.background;
      ctx.fillRect(x + 4, axis + 4, w, 16);
      ctx.fillStyle = theme.marker;
      ctx.fillText(text, x + 8, axis + 12);
      labelEnd = x + 4 + w;
    }
  }

  // Lane labels over a solid gutter.
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, gutter, height);
  for (let l = 0; l < lanes; l++) {
    const y = axis + l * laneH + laneH / 2;
    const state = layout.workerStates?.[l];
    if (layout.retiredFromMs?.[l] != null) {
      // A hollow dot: the worker is gone, its lane stays for the spans in view.
      ctx.strokeStyle = theme.text;
      ctx.beginPath();
      ctx.arc(12, y, 3, 0, Math.PI * 2);
      ctx.stroke();
    } else if (state !== undefined) {
      ctx.fillStyle = STATE_COLORS[state] ?? theme.text;
      ctx.beginPath();
      ctx.arc(12, y, 3.5, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = theme.text;
    ctx.fillText(`worker ${l}`, 22, y);
  }
  return { visible, rects, inFlight, retired, visibleByLane };
}

/** The span under a point, for the hover tooltip; -1 when none. Tolerance in px. */
export function spanAt(ring: SpanRing, lane: number, tMs: number, tolMs: number): number {
  let best = -1;
  let bestDist = Infinity;
  for (let k = ring.firstEndingAfter(tMs - tolMs); k < ring.size; k++) {
    const i = ring.slot(k);
    if (ring.worker[i] !== lane) continue;
    const s = ring.start[i]!;
    const e = ring.end[i]!;
    const d = tMs < s ? s - tMs : tMs > e ? tMs - e : 0;
    if (d <= tolMs && d < bestDist) {
      best = i;
      bestDist = d;
    }
  }
  return best;
}
