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
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../context.ts';
import { depthSeries, selectionRates } from '../data/derive.ts';
import { seriesColor } from '../data/palette.ts';
import type { FairGroups } from '../../../shared/protocol.ts';
import { policyUnits, type PolicyUnits } from '../data/policy-units.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { FairShare } from './fair-share.tsx';
import { ChargedShare, PriorityDetail, QueueAge } from './share-panel.tsx';
import { axis, Empty, markLines, Panel, tooltipStyle, useMarks } from './panel.tsx';

/** Points kept for the time-series charts: 60 s at 10 Hz, thinned to at most MAX_DRAWN. */
const SERIES_POINTS = 600;
const MAX_DRAWN = 150;

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
  const { telemetry } = useApp();
  const units = useUnits();
  const { rows: all, series } = depthSeries(telemetry.points.tail(SERIES_POINTS));
  const rows = thin(all);
  const marks = useMarks(rows);
  // Seconds of history the chart draws (a reload seeds it from the host's snapshot).
  const spanS = Math.round(((rows.at(-1)?.t ?? 0) - (rows[0]?.t ?? 0)) * 10) / 10;
  return (
    <Panel title={units.depthTitle} hint="splits queued · last 60 s" testId="depth">
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <div
          data-testid="queue-depth-series"
          data-span-s={spanS}
          data-series={series.join(',')}
          data-marks={marks.length}
        >
          <ResponsiveContainer width="100%" height={170}>
            <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid stroke="var(--grid)" vertical={false} />
              <XAxis
                dataKey="t"
                type="number"
                domain={['dataMin', 'dataMax']}
                tickFormatter={secondsTick(rows)}
                {...axis}
              />
              <YAxis allowDecimals={false} {...axis} />
              <Tooltip {...tooltipStyle} labelFormatter={(v) => `${Number(v).toFixed(1)} s`} />
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

export function SelectionsChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const units = useUnits();
  const rows = selectionRates(telemetry.points.tail(50));
  return (
    <Panel title={units.selectionsTitle} hint="per second, last 5 s" testId="selections">
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <ResponsiveContainer width="100%" height={170}>
          <BarChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="var(--grid)" vertical={false} />
            <XAxis dataKey="level" {...axis} />
            <YAxis {...axis} />
            <Tooltip {...tooltipStyle} formatter={(v) => `${Number(v).toFixed(1)} /s`} />
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
  const rows = thin(depthSeries(telemetry.points.tail(SERIES_POINTS)).rows);
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
          <AreaChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="var(--grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              domain={['dataMin', 'dataMax']}
              tickFormatter={secondsTick(rows)}
              {...axis}
            />
            <YAxis domain={[0, 100]} unit="%" {...axis} />
            <Tooltip {...tooltipStyle} labelFormatter={(v) => `${Number(v).toFixed(1)} s`} />
            <Area
              dataKey="util"
              name="utilization %"
              stroke="var(--accent)"
              fill="var(--accent)"
              fillOpacity={0.2}
              isAnimationActive={false}
            />
            {markLines(marks)}
          </AreaChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}
