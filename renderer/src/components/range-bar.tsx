/**
 * Time ranges: the bar that says what the Live view shows (following live, or a brushed range)
 * with the way back to live, the scroll-back buttons and slider over everything the history ring
 * holds (and how much that is), and the brush every time chart uses.
 * The range lives in the app store (`range`), so every panel follows it.
 */
import { useState } from 'react';
import { ReferenceArea } from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../context.ts';
import {
  historyText,
  LIVE_WINDOW_MS,
  SCROLL_STEPS,
  scrollPosition,
  scrollRange,
  shiftRange,
} from '../data/chart-window.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { heldSpanMs, normalizeRange, type TimeRange } from '../data/range-stats.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';

/** Engine time as the charts' x axes write it (seconds since the engine started). */
export function engineTime(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The width a first "earlier" step selects when following live. */
const FIRST_LOOK_BACK_MS = 10_000;

export function RangeBar() {
  useTelemetryTick(1000);
  const { telemetry, viewport } = useApp();
  const { range, setRange } = useAppState(
    useShallow((s) => ({ range: s.range, setRange: s.setRange })),
  );
  const points = telemetry.points;
  const oldest = points.at(0)?.tMs ?? 0;
  const newest = points.last()?.tMs ?? 0;
  const held = heldSpanMs(points.toArray());
  // The ring keeps `capacity` frames (POINT_CAPACITY): at the pace frames have come, that much
  // engine time.
  const capacityMs = points.size > 1 ? (held / (points.size - 1)) * points.capacity : 0;
  const select = (r: TimeRange) => {
    setRange(r);
    // The Gantt shows the range too, with a little context either side.
    viewport.windowMs = (r.toMs - r.fromMs) * 1.5;
    viewport.setEnd(r.toMs + (r.toMs - r.fromMs) * 0.25);
  };
  // The slider scrolls a window as wide as the range through it all; from live, as wide as the
  // live charts' window, or a quarter of the history while less than four of those is held.
  const scrollWidth =
    range === null ? Math.min(LIVE_WINDOW_MS, held / 4) : range.toMs - range.fromMs;
  const step = (fraction: number) => {
    const base = range ?? { fromMs: newest - FIRST_LOOK_BACK_MS, toMs: newest };
    select(shiftRange(base, range === null ? -1 : fraction, oldest, newest));
  };
  return (
    <div
      className={range === null ? 'range-bar' : 'range-bar on'}
      data-testid="range"
      data-state={range === null ? 'live' : 'range'}
      data-from-ms={range?.fromMs}
      data-to-ms={range?.toMs}
      data-held-ms={Math.round(held)}
    >
      <button
        className="btn small"
        data-testid="range-earlier"
        disabled={held === 0 || (range !== null && range.fromMs <= oldest)}
        title="look further back"
        onClick={() => step(-1)}
      >
        ◀ earlier
      </button>
      {range === null ? (
        <span className="range-text">
          following live · drag across a chart or shift-drag the Gantt to select a range
        </span>
      ) : (
        <span className="range-text" data-testid="range-text">
          range <b>{engineTime(range.fromMs)}</b> – <b>{engineTime(range.toMs)}</b> (
          {formatMs(range.toMs - range.fromMs)})
        </span>
      )}
      <button
        className="btn small"
        data-testid="range-later"
        disabled={range === null || range.toMs >= newest}
        title="move the range later"
        onClick={() => step(1)}
      >
        later ▶
      </button>
      <input
        type="range"
        className="range-scroll"
        data-testid="range-scroll"
        aria-label="scroll the charts back through the history held"
        title="scroll the charts back through the history held"
        min={0}
        max={SCROLL_STEPS}
        disabled={held === 0}
        value={Math.round(scrollPosition(range, oldest, newest) * SCROLL_STEPS)}
        onChange={(e) =>
          select(scrollRange(Number(e.target.value) / SCROLL_STEPS, scrollWidth, oldest, newest))
        }
      />
      <span
        className="hint"
        data-testid="range-held"
        data-oldest-ms={oldest}
        title={
          // Fewer when the frames' sample buckets reach their bound (POINT_SAMPLES_BUDGET).
          points.dropped > 0 && points.size < points.capacity
            ? `the app keeps ${points.size} frames now, not ${points.capacity}: their sample buckets reached its bound of ${(points.budget ?? 0).toLocaleString('en-US')} numbers`
            : `the app keeps the last ${points.capacity} frames: at this pace ≈ ${formatMs(capacityMs)}`
        }
      >
        {historyText(held)}
      </span>
      <button
        className={range === null ? 'btn small toggle on' : 'btn small toggle'}
        data-testid="range-live"
        aria-pressed={range === null}
        onClick={() => setRange(null)}
      >
        {range === null ? '● live' : '○ live'}
      </button>
    </div>
  );
}

/** recharts' mouse state: the x value under the pointer, as a label. */
interface ChartMouse {
  activeLabel?: string | number | undefined;
}

function labelX(e: ChartMouse | null | undefined): number | null {
  const v = Number(e?.activeLabel);
  return e?.activeLabel === undefined || !Number.isFinite(v) ? null : v;
}

/**
 * Brushing on a recharts time chart (x in seconds): drag to select, release to set the range.
 * Returns the chart's mouse handlers and what to draw (the drag in progress, the range selected).
 */
export function useChartBrush() {
  const { viewport } = useApp();
  const { range, setRange } = useAppState(
    useShallow((s) => ({ range: s.range, setRange: s.setRange })),
  );
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const handlers = {
    onMouseDown: (e: ChartMouse) => {
      const x = labelX(e);
      if (x !== null) setDrag({ a: x, b: x });
    },
    onMouseMove: (e: ChartMouse) => {
      const x = labelX(e);
      if (drag !== null && x !== null && x !== drag.b) setDrag({ a: drag.a, b: x });
    },
    onMouseUp: () => {
      if (drag === null) return;
      const r = normalizeRange(drag.a * 1000, drag.b * 1000);
      setDrag(null);
      if (r === null) return;
      setRange(r);
      viewport.windowMs = (r.toMs - r.fromMs) * 1.5;
      viewport.setEnd(r.toMs + (r.toMs - r.fromMs) * 0.25);
    },
  };
  const areas = [
    range !== null && (
      <ReferenceArea
        key="range"
        x1={range.fromMs / 1000}
        x2={range.toMs / 1000}
        fill="var(--accent)"
        fillOpacity={0.12}
        ifOverflow="hidden"
      />
    ),
    drag !== null && drag.a !== drag.b && (
      <ReferenceArea
        key="drag"
        x1={Math.min(drag.a, drag.b)}
        x2={Math.max(drag.a, drag.b)}
        fill="var(--accent)"
        fillOpacity={0.25}
      />
    ),
  ];
  return { handlers, areas, dragging: drag !== null };
}
