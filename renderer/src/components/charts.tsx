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
import { useApp } from '../context.ts';
import { depthSeries, levelShares, selectionRates } from '../data/derive.ts';
import { LEVEL_COLORS } from '../data/palette.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';

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
const SHARE_WINDOW_MS = 5000;

const axis = { stroke: 'var(--text-dim)', fontSize: 11, tickLine: false } as const;
const tooltipStyle = {
  contentStyle: {
    background: 'var(--surface-raised)',
    border: '1px solid var(--border)',
    fontSize: 12,
  },
  labelStyle: { color: 'var(--text)' },
} as const;

/** A hook (it reads the app context), so it is called at the top of a component, every render. */
function useLevelLabels(): string[] {
  const { telemetry } = useApp();
  return telemetry.latest?.levels.map((l) => l.label) ?? [];
}

export function Panel(props: {
  title: string;
  hint?: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <section className="panel" data-testid={props.testId}>
      <header>
        <h3>{props.title}</h3>
        {props.hint !== undefined && <span className="hint">{props.hint}</span>}
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}

function Empty() {
  return <div className="chart-empty">waiting for frames…</div>;
}

export function QueueDepthChart() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const labels = useLevelLabels();
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
  useTelemetryTick();
  const { telemetry } = useApp();
  const latest = telemetry.latest;
  const m = latest?.config.levelTimeMultiplier ?? 2;
  const rows =
    latest === null ? [] : levelShares(telemetry, SHARE_WINDOW_MS, m, latest.levels.length);
  const pct = rows.map((r) => ({ ...r, actual: r.actual * 100, target: r.target * 100 }));
  const mlfq = latest?.policy === 'mlfq';
  // One number for "where did the time go": lower means more time at the lower levels.
  const meanLevel = rows.reduce((acc, r, l) => acc + r.actual * l, 0);
  return (
    <Panel
      title="Scheduled-time share"
      hint={mlfq ? `actual vs target (m = ${m}) · last 5 s` : 'actual · target applies to mlfq'}
      testId="chart-level-share"
    >
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <>
          <ResponsiveContainer width="100%" height={170}>
            <BarChart data={pct} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid stroke="var(--grid)" vertical={false} />
              <XAxis dataKey="level" {...axis} />
              <YAxis domain={[0, 100]} unit="%" {...axis} />
              <Tooltip {...tooltipStyle} formatter={(v) => `${Number(v).toFixed(1)} %`} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Bar dataKey="actual" name="actual" fill="var(--accent)" isAnimationActive={false} />
              {mlfq && (
                <Bar
                  dataKey="target"
                  name="target"
                  fill="var(--target)"
                  isAnimationActive={false}
                />
              )}
            </BarChart>
          </ResponsiveContainer>
          <div
            className="share-readout"
            data-testid="level-share-readout"
            data-level0-share={rows[0]?.actual.toFixed(4)}
            data-mean-level={meanLevel.toFixed(4)}
            data-active-levels={rows.filter((r) => r.actual >= 0.05).length}
          >
            level 0: {((rows[0]?.actual ?? 0) * 100).toFixed(1)} %
            {mlfq && <> (target {((rows[0]?.target ?? 0) * 100).toFixed(1)} %)</>} · time-weighted
            mean level {meanLevel.toFixed(2)}
          </div>
        </>
      )}
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
