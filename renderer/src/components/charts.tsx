/**
 * The Live view's charts. Each reads the rings through `useTelemetryTick` (≤ 4 redraws a second),
 * so only the chart re-renders; every series is a bounded window, animation is off.
 */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../context.ts';
import { chartPoints, lastSpanOf } from '../data/chart-window.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { depthSeries, rangePoints, selectionRates } from '../data/derive.ts';
import { seriesColor } from '../data/palette.ts';
import type { FairGroups } from '../../../shared/protocol.ts';
import { policyUnits, type PolicyUnits } from '../data/policy-units.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { FairShare } from './fair-share.tsx';
import { ChargedShare, PriorityDetail, QueueAge } from './share-panel.tsx';
import { axis, Empty, markLines, Panel, tooltipStyle, useMarks } from './panel.tsx';
import { engineTime, useChartBrush } from './range-bar.tsx';

/** Time-series charts draw at most MAX_DRAWN points (thinned from the live window or range). */
const MAX_DRAWN = 150;
const MARGIN = { top: 14, right: 8, bottom: 14, left: 4 };

/** Axis titles: the x axis of every time chart, a y axis's quantity and unit. */
const X_TITLE = {
  value: 'engine time (s)',
  position: 'insideBottom',
  offset: -8,
  fontSize: 10,
} as const;
function yTitle(value: string) {
  return { value, angle: -90, position: 'insideLeft', offset: 10, fontSize: 10 } as const;
}
const LEGEND = { wrapperStyle: { fontSize: 11 }, verticalAlign: 'top', height: 18 } as const;

/** The points a time chart draws: the live window, or the selected range with context. */
function useChartPoints() {
  const { telemetry } = useApp();
  const range = useAppState((s) => s.range);
  return chartPoints(telemetry.points.toArray(), range);
}

/** Axis labels in seconds, with tenths when the window is short enough for ticks to repeat. */
function secondsTick(rows: readonly Record<string, number>[]): (v: number) => string {
  const span = (rows.at(-1)?.t ?? 0) - (rows[0]?.t ?? 0);
  const digits = span < 20 ? 1 : 0;
  return (v) => `${v.toFixed(digits)}s`;
}

function thin<T>(rows: T[]): T[] {
  if (rows.length <= MAX_DRAWN) return rows;
  const step = rows.length / MAX_DRAWN;
  const out: T[] = [];
  for (let k = 0; k < MAX_DRAWN; k++) out.push(rows[Math.floor(k * step)]!);
  out.push(rows[rows.length - 1]!);
  return out;
}

/** The latest policy's units (levels, bands, one queue) for the panel titles. */
function useUnits(fairUnit?: FairGroups['unit']): PolicyUnits {
  const { policy, fairness } = useAppState(
    useShallow((st) => ({ policy: st.policy, fairness: st.config?.fairness ?? 'task' })),
  );
  return policyUnits(policy, fairness, fairUnit);
}

export function QueueDepthChart() {
  useTelemetryTick();
  const units = useUnits();
  const range = useAppState((st) => st.range);
  const brush = useChartBrush();
  const { rows: all, series } = depthSeries(useChartPoints());
  const rows = thin(all);
  const marks = useMarks(rows);
  // Seconds of history the chart draws (a reload seeds it from the host's snapshot).
  const spanS = Math.round(((rows.at(-1)?.t ?? 0) - (rows[0]?.t ?? 0)) * 10) / 10;
  return (
    <Panel
      title={units.depthTitle}
      hint={`splits queued · ${range === null ? 'last 60 s' : 'selected range'} · drag to select`}
      testId="depth"
    >
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <div
          data-testid="queue-depth-series"
          data-span-s={spanS}
          data-first-ms={Math.round((rows[0]?.t ?? 0) * 1000)}
          data-series={series.join(',')}
          data-marks={marks.length}
        >
          <ResponsiveContainer width="100%" height={170}>
            <LineChart data={rows} margin={MARGIN} {...brush.handlers}>
              <CartesianGrid stroke="var(--grid)" vertical={false} />
              <XAxis
                dataKey="t"
                type="number"
                domain={['dataMin', 'dataMax']}
                tickFormatter={secondsTick(rows)}
                label={X_TITLE}
                {...axis}
              />
              <YAxis allowDecimals={false} label={yTitle('queued')} {...axis} />
              <Tooltip {...tooltipStyle} labelFormatter={(v) => engineTime(Number(v) * 1000)} />
              <Legend {...LEGEND} />
              {series.map((label, k) => (
                <Line
                  key={label}
                  dataKey={label}
                  name={label}
                  stroke={seriesColor(label, k)}
                  dot={false}
                  strokeWidth={1.5}
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))}
              {markLines(marks)}
              {brush.areas}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </Panel>
  );
}

export function LevelShareChart() {
  // Under fair the groups' kind (job or tenant) comes with each frame.
  useTelemetryTick();
  const { telemetry } = useApp();
  const policy = useAppState((st) => st.policy);
  const m = useAppState((st) => st.config?.levelTimeMultiplier ?? 2);
  const units = useUnits(telemetry.latest?.fairGroups?.unit);
  const hint =
    policy === 'mlfq'
      ? `charged vs target (m = ${m})`
      : policy === 'priority'
        ? 'charged · strict priority, no target'
        : policy === 'fair'
          ? `service so far of each ${units.unit} with live work`
          : 'oldest wait of a queued split';
  return (
    <Panel title={units.shareTitle} hint={hint} testId="share" unit={units.unit}>
      {policy === 'fifo' ? (
        <QueueAge />
      ) : policy === 'fair' ? (
        <FairShare unit={units.unit} />
      ) : (
        <>
          <ChargedShare unit={units.unit} />
          {policy === 'priority' && <PriorityDetail />}
        </>
      )}
    </Panel>
  );
}

/** Engine time the live selections rates are taken over. */
const SELECTION_WINDOW_MS = 5_000;

export function SelectionsChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const units = useUnits();
  const range = useAppState((st) => st.range);
  // Live: the last 5 s of engine time, or as near as the frames allow (at 100× a frame is 10 s
  // apart): the hint says the span the rates are taken over.
  const points =
    range === null
      ? lastSpanOf(telemetry.points, SELECTION_WINDOW_MS)
      : rangePoints(telemetry, range);
  const rows = selectionRates(points);
  const spanMs = (points.at(-1)?.tMs ?? 0) - (points[0]?.tMs ?? 0);
  return (
    <Panel
      title={units.selectionsTitle}
      hint={`per second, ${range === null ? `last ${formatMs(spanMs)}` : 'over the selected range'}`}
      testId="selections"
    >
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <ResponsiveContainer width="100%" height={170}>
          <BarChart data={rows} margin={MARGIN}>
            <CartesianGrid stroke="var(--grid)" vertical={false} />
            <XAxis
              dataKey="level"
              label={{ ...X_TITLE, value: units.unit === 'level' ? 'level' : units.unit }}
              {...axis}
            />
            <YAxis label={yTitle('selections / s')} {...axis} />
            <Tooltip {...tooltipStyle} formatter={(v) => `${Number(v).toFixed(1)} /s`} />
            <Legend {...LEGEND} />
            <Bar
              dataKey="rate"
              name="selections/s"
              fill="var(--accent-2)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}

export function UtilizationChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const brush = useChartBrush();
  const rows = thin(depthSeries(useChartPoints()).rows);
  const marks = useMarks(rows);
  const latest = telemetry.latest;
  return (
    <Panel
      title="Utilization"
      hint={latest === null ? 'busy / capacity' : `${(latest.utilization * 100).toFixed(0)} % now`}
      testId="utilization"
    >
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <ResponsiveContainer width="100%" height={170}>
          <AreaChart data={rows} margin={MARGIN} {...brush.handlers}>
            <CartesianGrid stroke="var(--grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              domain={['dataMin', 'dataMax']}
              tickFormatter={secondsTick(rows)}
              label={X_TITLE}
              {...axis}
            />
            <YAxis domain={[0, 100]} unit="%" label={yTitle('busy')} {...axis} />
            <Tooltip {...tooltipStyle} labelFormatter={(v) => engineTime(Number(v) * 1000)} />
            <Legend {...LEGEND} />
            <Area
              dataKey="util"
              name="utilization %"
              stroke="var(--accent)"
              fill="var(--accent)"
              fillOpacity={0.2}
              isAnimationActive={false}
            />
            {markLines(marks)}
            {brush.areas}
          </AreaChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}
