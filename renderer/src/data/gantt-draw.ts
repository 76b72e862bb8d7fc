/**
 * Draws the Gantt: one lane per worker, only spans inside the window, sub-pixel spans merged
 * (span-merge.ts), rectangles batched by colour so a frame costs a handful of fills however many
 * quanta it shows, then knob-change markers and the time axis. On the cluster backend the lanes
 * come node by node, each node under a header band (`laneGroups`, node-lanes.ts).
 */
import type { WorkerState } from '../../../shared/protocol.ts';
import type { InFlight } from './gantt-lanes.ts';
import type { LaneGroups } from './node-lanes.ts';
import { CATEGORICAL, categoricalIndex, LEVEL_COLORS } from './palette.ts';
import { drawSelection } from './gantt-selection.ts';
import { LaneMerger, MIXED } from './span-merge.ts';
import type { GanttSpans } from './gantt-spans.ts';
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
  /** Lanes grouped by node (`laneGroups`); absent or null: lanes in worker-id order. */
  groups?: LaneGroups | null;
  /** The selected job: its spans drawn over a veil on the others (gantt-selection.ts). */
  selectedJob?: number | null;
}

/** A worker state's dot colour (the Gantt's gutter, the workers panel). */
export const STATE_COLORS: Record<WorkerState, string> = {
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
  /** Node headers drawn. */
  headers: number;
  /** Spans of the selected job in the window (0 when none is selected). */
  selected: number;
}

const PALETTE_SIZE = CATEGORICAL.length;

/** A node header band's height (px), less when headers would take over half the plot. */
const HEADER_H = 16;

export interface LaneGeometry {
  laneH: number;
  headerH: number;
  /** Per lane (worker id): the y of its top edge. */
  top: number[];
}

/** Where each lane sits: rows of equal height below the axis, a header band above each group. */
export function laneGeometry(l: GanttLayout): LaneGeometry {
  const plotH = l.height - l.axis;
  const headers = l.groups?.headers ?? [];
  const headerH = headers.length === 0 ? 0 : Math.min(HEADER_H, plotH / 2 / headers.length);
  const laneH = (plotH - headers.length * headerH) / Math.max(1, l.lanes);
  const top = new Array<number>(l.lanes);
  const order = l.groups?.order;
  if (order === undefined) {
    for (let lane = 0; lane < l.lanes; lane++) top[lane] = l.axis + lane * laneH;
  } else {
    let h = 0;
    order.forEach((lane, row) => {
      while (h < headers.length && headers[h]!.row <= row) h++;
      top[lane] = l.axis + row * laneH + h * headerH;
    });
  }
  return { laneH, headerH, top };
}

/** The lane at height `y`, or -1 (the axis, a header, below the last lane). */
export function laneAt(geo: LaneGeometry, y: number): number {
  for (let lane = 0; lane < geo.top.length; lane++) {
    const t = geo.top[lane]!;
    if (y >= t && y < t + geo.laneH) return lane;
  }
  return -1;
}

// Reused between frames: the draw loop allocates nothing per span.
const batches: number[][] = Array.from({ length: PALETTE_SIZE + 1 }, () => []);
let mergers: LaneMerger[] = [];
let mergerLane = 0;
let mergerInset = 0;
let mergerTop: number[] = [];

function emit(x: number, w: number, color: number): void {
  const b = batches[color === MIXED ? PALETTE_SIZE : color]!;
  b.push(x, mergerTop[mergerLane]! + mergerInset, w, 0);
}

export function drawGantt(
  ctx: CanvasRenderingContext2D,
  ring: GanttSpans,
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
  const geo = laneGeometry(layout);
  const { laneH, top } = geo;
  const barH = Math.max(1, laneH - Math.min(6, laneH * 0.25));
  const groups = layout.groups ?? null;
  const headerTops = (groups?.headers ?? []).map((h) => {
    const first = groups!.order[h.row];
    return first === undefined ? height : top[first]! - geo.headerH;
  });

  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = theme.laneAlt;
  for (let l = 0; l < lanes; l++) {
    if ((groups?.rowOf[l] ?? l) % 2 === 1) ctx.fillRect(gutter, top[l]!, plotW, laneH);
  }
  // Node header bands, drawn with the background so markers stay on top of them.
  ctx.fillStyle = theme.grid;
  for (const y of headerTops) ctx.fillRect(gutter, y, plotW, geo.headerH);

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
  mergerInset = (laneH - barH) / 2;
  mergerTop = top;
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
    const y = top[q.lane]! + (laneH - barH) / 2;
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

  let selected = 0;
  if (layout.selectedJob != null) {
    selected = drawSelection(ctx, ring, layout.selectedJob, t1, {
      left: gutter,
      right: width,
      top: axis,
      bottom: height,
      laneTop: top,
      barInset: (laneH - barH) / 2,
      barH,
      lanes,
      t0,
      pxPerMs,
      colors,
      palette,
      veil: theme.background,
      outline: theme.text,
      mixed: theme.mixed,
    });
  }

  // Lanes of workers that left the pool: veiled from when they left, their past left visible.
  let retired = 0;
  layout.retiredFromMs?.forEach((from, lane) => {
    if (from === null || lane >= lanes || from > t1) return;
    retired++;
    const x0 = gutter + (Math.max(from, t0) - t0) * pxPerMs;
    ctx.globalAlpha = 0.7;
    ctx.fillStyle = theme.background;
    ctx.fillRect(x0, top[lane]!, width - x0, laneH);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.text;
    if (x0 + 60 < width) ctx.fillText('retired', x0 + 6, top[lane]! + laneH / 2);
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

  // Lane labels over a solid gutter; node headers (name, worker count) start in it.
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, gutter, height);
  groups?.headers.forEach((h, k) => {
    const y = headerTops[k]!;
    ctx.fillStyle = theme.grid;
    ctx.fillRect(0, y, gutter, geo.headerH);
    ctx.fillStyle = theme.text;
    ctx.fillText(h.text, 6, y + geo.headerH / 2);
  });
  for (let l = 0; l < lanes; l++) {
    const y = top[l]! + laneH / 2;
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
    ctx.fillText(groups?.labels[l] ?? `worker ${l}`, 22, y);
  }
  return {
    visible,
    rects,
    inFlight,
    retired,
    visibleByLane,
    headers: headerTops.length,
    selected,
  };
}

/** The span under a point, for the hover tooltip; -1 when none. Tolerance in px. */
export function spanAt(ring: GanttSpans, lane: number, tMs: number, tolMs: number): number {
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
