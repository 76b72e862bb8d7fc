/**
 * Latency and wait distributions per class (per band under priority): one CDF line per key over
 * the selected range, or while live over the tables' window, with p50/p95/p99 marked. Drawn from
 * the frames' histogram buckets, the same histogram the tables read (`data/range-stats.ts`).
 */
import { useState } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceDot,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useApp, useAppState } from '../context.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { seriesColor } from '../data/palette.ts';
import {
  cdfOf,
  hasSamples,
  pointsIn,
  rangeSummaries,
  summaryPercentiles,
  type SampleKind,
} from '../data/range-stats.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { axis, Empty, Panel, tooltipStyle } from './panel.tsx';

/** The log axis cannot show 0: the shortest time a CDF is drawn from (1 µs). */
const FLOOR_MS = 0.001;
const MARKS = [
  { p: 50, key: 'p50', shape: 3 },
  { p: 95, key: 'p95', shape: 4 },
  { p: 99, key: 'p99', shape: 5 },
] as const;

export function DistributionsPanel() {
  useTelemetryTick(1000);
  const { telemetry } = useApp();
  const range = useAppState((s) => s.range);
  const [kind, setKind] = useState<SampleKind>('latency');
  const f = telemetry.latest;
  const byBand = f?.policy === 'priority';
  // While live: the tables' window (statsSinceNanos), so the counts match theirs.
  const window =
    range ??
    (f === null
      ? { fromMs: 0, toMs: 0 }
      : { fromMs: (f.statsSinceNanos ?? 0) / 1e6, toMs: f.timeNanos / 1e6 });
  const points = pointsIn(telemetry.points.toArray(), window);
  const summaries = [...rangeSummaries(points, kind, byBand ? 'byBand' : 'byClass')];
  const lines = summaries.map(([key, s], k) => ({
    key,
    color: seriesColor(key, k),
    cdf: cdfOf(s).map((c) => ({ ms: Math.max(FLOOR_MS, c.ms), frac: c.frac * 100 })),
    p: summaryPercentiles(s),
  }));
  const reported = hasSamples(points) || f === null || f.samples !== undefined;
  return (
    <Panel
      title="Distributions"
      hint={`${kind} CDF ${byBand ? 'per priority band' : 'per class'} · ${
        range === null ? 'over the tables’ window' : 'over the selected range'
      } · ◆ p50 p95 p99`}
      testId="distributions"
      actions={
        <div className="segmented" role="group" aria-label="distribution of">
          {(['latency', 'wait'] as const).map((k) => (
            <button
              key={k}
              className={kind === k ? 'on' : ''}
              data-testid={`dist-${k}`}
              onClick={() => setKind(k)}
            >
              {k}
            </button>
          ))}
        </div>
      }
    >
      {!reported ? (
        <p className="muted">This host does not report samples, so no distribution is drawn.</p>
      ) : lines.length === 0 ? (
        <Empty />
      ) : (
        <div
          data-testid="distribution-chart"
          data-kind={kind}
          data-keys={lines.map((l) => l.key).join(',')}
          data-counts={lines.map((l) => l.p.count).join(',')}
          data-p95={lines.map((l) => l.p.p95).join(',')}
        >
          <ResponsiveContainer width="100%" height={190}>
            <LineChart margin={{ top: 14, right: 12, bottom: 14, left: 4 }}>
              <CartesianGrid stroke="var(--grid)" />
              <XAxis
                dataKey="ms"
                type="number"
                scale="log"
                domain={['auto', 'auto']}
                allowDuplicatedCategory={false}
                tickFormatter={(v) => formatMs(Number(v))}
                label={{
                  value: `${kind} (log scale)`,
                  position: 'insideBottom',
                  offset: -8,
                  fontSize: 10,
                }}
                {...axis}
              />
              <YAxis
                dataKey="frac"
                domain={[0, 100]}
                unit="%"
                label={{
                  value: 'share ≤ x',
                  angle: -90,
                  position: 'insideLeft',
                  offset: 10,
                  fontSize: 10,
                }}
                {...axis}
              />
              <Tooltip
                {...tooltipStyle}
                labelFormatter={(v) => `≤ ${formatMs(Number(v))}`}
                formatter={(v) => `${Number(v).toFixed(1)} %`}
              />
              <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" height={18} />
              {lines.map((l) => (
                <Line
                  key={l.key}
                  data={l.cdf}
                  dataKey="frac"
                  name={`${l.key} (n ${l.p.count})`}
                  type="stepAfter"
                  stroke={l.color}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                />
              ))}
              {lines.flatMap((l) =>
                MARKS.map((m) => (
                  <ReferenceDot
                    key={`${l.key}:${m.key}`}
                    x={Math.max(FLOOR_MS, l.p[m.key])}
                    y={m.p}
                    r={m.shape}
                    fill={l.color}
                    stroke="var(--surface)"
                    ifOverflow="extendDomain"
                  />
                )),
              )}
            </LineChart>
          </ResponsiveContainer>
          <table className="table compact" data-testid="distribution-marks">
            <thead>
              <tr>
                <th>{byBand ? 'band' : 'class'}</th>
                <th className="num">n</th>
                <th className="num">p50</th>
                <th className="num">p95</th>
                <th className="num">p99</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.key}>
                  <td>
                    <i className="swatch" style={{ background: l.color }} />
                    {l.key}
                  </td>
                  <td className="num">{l.p.count}</td>
                  <td className="num">{formatMs(l.p.p50)}</td>
                  <td className="num">{formatMs(l.p.p95)}</td>
                  <td className="num">{formatMs(l.p.p99)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
