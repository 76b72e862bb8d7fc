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
import { useApp, useAppState } from '../context.ts';
import { depthSeries, selectionRates } from '../data/derive.ts';
import { LEVEL_COLORS } from '../data/palette.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { ChargedShare } from './share-panel.tsx';
import { axis, Empty, Panel, tooltipStyle } from './panel.tsx';

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

function levelLabels(): string[] {
  const { telemetry } = useApp();
  return telemetry.latest?.levels.map((l) => l.label) ?? [];
}

export function QueueDepthChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const labels = levelLabels();
  const rows = thin(depthSeries(telemetry.points.tail(SERIES_POINTS)));
  // Seconds of history the chart draws (a reload seeds it from the host's snapshot).
  const spanS = Math.round(((rows.at(-1)?.t ?? 0) - (rows[0]?.t ?? 0)) * 10) / 10;
  return (
    <Panel title="Queue depth" hint="per level · last 60 s" testId="chart-queue-depth">
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <div data-testid="queue-depth-series" data-span-s={spanS}>
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
              {labels.map((label, l) => (
                <Line
                  key={l}
                  dataKey={`L${l}`}
                  name={label}
                  stroke={LEVEL_COLORS[l % LEVEL_COLORS.length] ?? 'var(--accent)'}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </Panel>
  );
}

export function LevelShareChart() {
  const policy = useAppState((st) => st.policy);
  const unit = policy === 'priority' ? 'priority band' : 'level';
  const m = useAppState((st) => st.config?.levelTimeMultiplier ?? 2);
  return (
    <Panel
      title={`Charged time per ${unit}`}
      hint={policy === 'mlfq' ? `charged vs target (m = ${m})` : 'charged'}
      testId="share"
    >
      <ChargedShare unit={unit} />
    </Panel>
  );
}

export function SelectionsChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const rows = selectionRates(telemetry.points.tail(50));
  return (
    <Panel title="Selections" hint="per level · per second, last 5 s" testId="chart-selections">
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
  const rows = thin(depthSeries(telemetry.points.tail(SERIES_POINTS)));
  const latest = telemetry.latest;
  return (
    <Panel
      title="Utilization"
      hint={latest === null ? 'busy / capacity' : `${(latest.utilization * 100).toFixed(0)} % now`}
      testId="chart-utilization"
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
          </AreaChart>
        </ResponsiveContainer>
      )}
    </Panel>
  );
}
