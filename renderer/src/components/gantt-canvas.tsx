/**
 * The live Gantt. Drawing happens in requestAnimationFrame straight from the span ring; React
 * only mounts the canvas. While following a running engine the right edge glides with the
 * engine clock (extrapolated between frames), otherwise it redraws only when something changed.
 * `data-span-count` tells tests how many spans were in the window at the last draw; on the
 * cluster backend `data-nodes` names the node groups top down (`a:2,b:1`) and `data-lane-order`
 * the worker ids from the top; `data-span-probe` (`x,y,job,width`) says where a span is, for
 * browser specs that click one (gantt-probe.ts; of the class in `data-probe-class` if set).
 */
import { useEffect, useRef } from 'react';
import { useApp } from '../context.ts';
import {
  drawGantt,
  laneAt,
  laneGeometry,
  spanAt,
  type GanttLayout,
  type GanttTheme,
} from '../data/gantt-draw.ts';
import { inFlightQuanta, laneLayout, type InFlight } from '../data/gantt-lanes.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { laneGroups } from '../data/node-lanes.ts';
import { spanProbe } from '../data/gantt-probe.ts';
import { spanTipRows } from '../data/gantt-tip.ts';
import { normalizeRange } from '../data/range-stats.ts';

const GUTTER = 72;
/** Room for `node · worker N` labels when the lanes are grouped by node. */
const NODE_GUTTER = 150;
const AXIS = 22;

function readTheme(el: HTMLElement): GanttTheme {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--surface', '#16181d'),
    laneAlt: v('--surface-alt', '#1c1f26'),
    grid: v('--grid', '#2a2e37'),
    text: v('--text-dim', '#9aa3b2'),
    marker: v('--accent', '#7aa2ff'),
    mixed: v('--mixed', '#8b93a3'),
  };
}

export function GanttCanvas() {
  const { telemetry, viewport, store } = useApp();
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const rangeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const wrap = wrapRef.current!;
    const canvas = canvasRef.current!;
    const tip = tipRef.current!;
    const shade = rangeRef.current!;
    const ctx = canvas.getContext('2d', { alpha: false })!;
    let theme = readTheme(wrap);
    let layout: GanttLayout = { width: 0, height: 0, gutter: GUTTER, axis: AXIS, lanes: 1 };
    let handle: number | null = null;
    let draws = 0;
    let drawMs = 0;
    // Engine-clock extrapolation between frames: engine ms per wall ms, from the last frames.
    let lastWall = performance.now();
    let lastEngine = telemetry.nowMs;
    let rate = 0;
    let step = 0;
    let lastSeq = -1;
    let inFlight: InFlight[] = [];

    const following = () => store.getState().follow;
    const live = () => {
      const s = store.getState();
      return s.follow && !s.paused && s.status === 'open' && telemetry.latest !== null;
    };

    const windowEnd = (): number => {
      if (!following()) return viewport.endMs;
      // Glide at most one frame interval past the last frame: never run ahead of the engine.
      const extrapolated = live() ? Math.min((performance.now() - lastWall) * rate, step) : 0;
      return lastEngine + extrapolated;
    };

    const draw = () => {
      handle = null;
      if (layout.width === 0) return;
      const s = store.getState();
      const t1 = windowEnd();
      const t0 = t1 - viewport.windowMs;
      const markers = telemetry.markers.toArray();
      const workers = telemetry.latest?.workers ?? [];
      const lanes = laneLayout(
        Math.max(s.workerCount, workers.length),
        telemetry.laneEndMs,
        t0,
        markers,
      );
      layout.lanes = lanes.lanes;
      layout.retiredFromMs = lanes.retiredFromMs;
      layout.groups = laneGroups(workers, lanes.lanes);
      layout.gutter = layout.groups === null ? GUTTER : NODE_GUTTER;
      // Draw running quanta up to the engine's now (or the window's end when looking back).
      inFlight = inFlightQuanta(workers, Math.max(t1, telemetry.nowMs));
      layout.inFlight = inFlight;
      if (following()) viewport.endMs = t1;
      const dpr = window.devicePixelRatio || 1;
      const began = performance.now();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      layout.workerStates = telemetry.latest?.workers.map((w) => w.state) ?? [];
      layout.selectedJob = s.selectedJob;
      const r = drawGantt(ctx, telemetry.spans, markers, layout, t0, t1, s.colorBy, theme);
      draws++;
      drawMs = drawMs * 0.9 + (performance.now() - began) * 0.1;
      canvas.dataset.drawMs = drawMs.toFixed(2);
      canvas.dataset.spanCount = String(r.visible);
      canvas.dataset.rectCount = String(r.rects);
      canvas.dataset.inFlight = String(r.inFlight);
      canvas.dataset.selectedJob = s.selectedJob === null ? '' : String(s.selectedJob);
      canvas.dataset.selectedSpans = String(r.selected);
      canvas.dataset.lanes = String(layout.lanes);
      canvas.dataset.retiredLanes = String(r.retired);
      canvas.dataset.laneSpans = r.visibleByLane.join(',');
      canvas.dataset.nodes = (layout.groups?.headers ?? [])
        .map((h) => `${h.node ?? ''}:${h.lanes}`)
        .join(',');
      canvas.dataset.laneOrder = (layout.groups?.order ?? []).join(',');
      canvas.dataset.windowMs = String(viewport.windowMs);
      const wanted = canvas.dataset.probeClass;
      const onlyCls = wanted === undefined ? null : telemetry.classNames.indexOf(wanted);
      const probe = onlyCls === -1 ? null : spanProbe(telemetry.spans, layout, t0, t1, onlyCls);
      canvas.dataset.spanProbe =
        probe === null
          ? ''
          : [probe.x, probe.y, probe.job, probe.width].map((v) => Math.round(v)).join(',');
      canvas.dataset.spanProbeClass = probe === null ? '' : (telemetry.classNames[probe.cls] ?? '');
      canvas.dataset.draws = String(draws);
      placeShade(brush ?? s.range, t0, t1);
      if (live()) schedule();
    };
    // The selected (or being brushed) range, shaded over the lanes: a DOM box, not canvas pixels.
    const placeShade = (r: { fromMs: number; toMs: number } | null, t0: number, t1: number) => {
      if (r === null || r.toMs <= t0 || r.fromMs >= t1) {
        shade.hidden = true;
        return;
      }
      const w = Math.max(1, layout.width - layout.gutter);
      const x0 = layout.gutter + (Math.max(r.fromMs, t0) - t0) * (w / (t1 - t0));
      const x1 = layout.gutter + (Math.min(r.toMs, t1) - t0) * (w / (t1 - t0));
      shade.hidden = false;
      shade.style.left = `${x0}px`;
      shade.style.width = `${Math.max(1, x1 - x0)}px`;
    };
    const schedule = () => {
      if (handle === null) handle = requestAnimationFrame(draw);
    };

    const onData = () => {
      const latest = telemetry.latest;
      if (latest !== null && latest.seq !== lastSeq) {
        const now = performance.now();
        const engine = telemetry.nowMs;
        // Frames that arrive in a burst say nothing about the engine's pace; skip them.
        if (lastSeq >= 0 && now - lastWall > 20 && engine >= lastEngine) {
          const observed = (engine - lastEngine) / (now - lastWall);
          rate = rate === 0 ? observed : rate * 0.7 + observed * 0.3;
          step = engine - lastEngine;
        }
        lastSeq = latest.seq;
        lastWall = now;
        lastEngine = engine;
      }
      schedule();
    };

    const resize = () => {
      const rect = wrap.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.floor(rect.width * dpr));
      canvas.height = Math.max(1, Math.floor(rect.height * dpr));
      canvas.style.width = `${rect.width}px`;
      canvas.style.height = `${rect.height}px`;
      layout = { ...layout, width: rect.width, height: rect.height };
      schedule();
    };
    const ro = new ResizeObserver(resize);
    ro.observe(wrap);
    resize();

    const unsubData = telemetry.subscribe(onData);
    const unsubView = viewport.subscribe(schedule);
    const unsubStore = store.subscribe((s, prev) => {
      if (s.theme !== prev.theme) theme = readTheme(wrap);
      if (
        s.follow !== prev.follow ||
        s.colorBy !== prev.colorBy ||
        s.theme !== prev.theme ||
        s.paused !== prev.paused ||
        s.workerCount !== prev.workerCount ||
        s.selectedJob !== prev.selectedJob ||
        s.status !== prev.status ||
        s.range !== prev.range
      ) {
        schedule();
      }
    });

    // Interaction: wheel zooms around the cursor, drag pans (and leaves follow mode).
    const plotX = (clientX: number) =>
      clientX - canvas.getBoundingClientRect().left - layout.gutter;
    const plotW = () => Math.max(1, layout.width - layout.gutter);
    const onWheel = (ev: WheelEvent) => {
      ev.preventDefault();
      const anchor = following() ? 1 : Math.min(1, Math.max(0, plotX(ev.clientX) / plotW()));
      viewport.zoom(Math.exp(ev.deltaY * 0.0015), anchor, windowEnd());
    };
    let drag: { x: number; end: number; moved: boolean } | null = null;
    // Shift-drag brushes a time range instead of panning.
    let brush: { fromMs: number; toMs: number } | null = null;
    const timeAt = (clientX: number) =>
      viewport.endMs - viewport.windowMs + (plotX(clientX) / plotW()) * viewport.windowMs;
    const onDown = (ev: PointerEvent) => {
      canvas.setPointerCapture(ev.pointerId);
      if (ev.shiftKey) {
        // Freeze the window where it is, so the brushed times stay under the pointer.
        if (following()) {
          viewport.endMs = windowEnd();
          store.getState().setFollow(false);
        }
        const t = timeAt(ev.clientX);
        brush = { fromMs: t, toMs: t };
        return;
      }
      drag = { x: ev.clientX, end: windowEnd(), moved: false };
    };
    const onMove = (ev: PointerEvent) => {
      if (brush !== null) {
        brush = { fromMs: brush.fromMs, toMs: timeAt(ev.clientX) };
        const ordered = normalizeRange(brush.fromMs, brush.toMs, 0);
        if (ordered !== null)
          placeShade(ordered, viewport.endMs - viewport.windowMs, viewport.endMs);
        tip.hidden = true;
        return;
      }
      if (drag !== null) {
        const dx = ev.clientX - drag.x;
        if (Math.abs(dx) > 2) drag.moved = true;
        if (Math.abs(dx) > 2 && following()) store.getState().setFollow(false);
        if (!following()) viewport.setEnd(drag.end - (dx / plotW()) * viewport.windowMs);
        tip.hidden = true;
        return;
      }
      hover(ev);
    };
    const onUp = (ev: PointerEvent) => {
      if (brush !== null) {
        // At least 2 px wide: a shift-click selects nothing.
        const r = normalizeRange(brush.fromMs, brush.toMs, 2 * (viewport.windowMs / plotW()));
        brush = null;
        if (r !== null) store.getState().setRange(r);
        schedule();
      } else if (drag !== null && !drag.moved) {
        // A click (no drag) on a span or a running quantum selects its job.
        const job = jobAt(ev);
        if (job !== null) store.getState().selectJob(job);
      }
      drag = null;
      if (canvas.hasPointerCapture(ev.pointerId)) canvas.releasePointerCapture(ev.pointerId);
    };
    /** The job of the span or running quantum under the pointer, or null. */
    const jobAt = (ev: PointerEvent): number | null => {
      const rect = canvas.getBoundingClientRect();
      const x = ev.clientX - rect.left;
      const lane = laneAt(laneGeometry(layout), ev.clientY - rect.top);
      if (x < layout.gutter || lane < 0) return null;
      const msPerPx = viewport.windowMs / plotW();
      const t = viewport.endMs - viewport.windowMs + (x - layout.gutter) * msPerPx;
      const i = spanAt(telemetry.spans, lane, t, 3 * msPerPx);
      if (i >= 0) return telemetry.spans.job[i]!;
      const q = inFlight.find((f) => f.lane === lane && f.startMs <= t && t <= f.endMs);
      return q?.job ?? null;
    };
    const hover = (ev: PointerEvent) => {
      const rect = canvas.getBoundingClientRect();
      const x = ev.clientX - rect.left;
      const y = ev.clientY - rect.top;
      const lane = laneAt(laneGeometry(layout), y);
      if (x < layout.gutter || lane < 0) {
        tip.hidden = true;
        return;
      }
      const t1 = viewport.endMs;
      const msPerPx = viewport.windowMs / plotW();
      const t = t1 - viewport.windowMs + (x - layout.gutter) * msPerPx;
      const i = spanAt(telemetry.spans, lane, t, 3 * msPerPx);
      const q = inFlight.find((f) => f.lane === lane && f.startMs <= t && t <= f.endMs);
      const workerName = layout.groups?.labels[lane] ?? String(lane);
      let rows: [string, string][];
      if (i >= 0) {
        rows = spanTipRows(telemetry, i, workerName);
      } else if (q !== undefined) {
        rows = [
          ['job', q.job === null ? '?' : String(q.job)],
          ['running for', formatMs(q.endMs - q.startMs)],
          ['outcome', 'in progress'],
          ['worker', workerName],
        ];
      } else {
        tip.hidden = true;
        return;
      }
      tip.replaceChildren(
        ...rows.map(([k, v]) => {
          const row = document.createElement('div');
          const key = document.createElement('span');
          key.textContent = k;
          const val = document.createElement('b');
          val.textContent = v;
          row.append(key, val);
          return row;
        }),
      );
      tip.hidden = false;
      const left = Math.min(x + 14, layout.width - 200);
      tip.style.transform = `translate(${left}px, ${Math.max(0, y - 20)}px)`;
    };
    const onLeave = () => {
      tip.hidden = true;
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('pointerdown', onDown);
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerup', onUp);
    canvas.addEventListener('pointerleave', onLeave);

    return () => {
      if (handle !== null) cancelAnimationFrame(handle);
      ro.disconnect();
      unsubData();
      unsubView();
      unsubStore();
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('pointerdown', onDown);
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('pointerup', onUp);
      canvas.removeEventListener('pointerleave', onLeave);
    };
  }, [telemetry, viewport, store]);

  return (
    <div className="gantt" ref={wrapRef}>
      <canvas ref={canvasRef} data-testid="gantt-canvas" data-span-count="0" />
      <div className="gantt-range" ref={rangeRef} data-testid="gantt-range" hidden />
      <div className="gantt-tip" ref={tipRef} data-testid="gantt-tooltip" hidden />
    </div>
  );
}
