/**
 * A comparison, richer: each config's queue depth and level share over the run side by side
 * (one small chart per config, same axes), each class's latency CDF with one line per config,
 * and "apply to live", which sends a config's knobs to the running session.
 */
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { CompareResultWire, CompareReportRow } from '../../../shared/protocol.ts';
import { useApp } from '../context.ts';
import { sendCommand } from '../data/commands.ts';
import { compareCdfs, compareSeriesRows } from '../data/compare-series.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { CATEGORICAL, seriesColor } from '../data/palette.ts';
import { CdfChart } from '../components/cdf-chart.tsx';

const axis = { stroke: 'var(--text-dim)', fontSize: 11, tickLine: false } as const;
const tip = {
  contentStyle: { background: 'var(--surface-raised)', border: '1px solid var(--border)' },
} as const;
const xTitle = {
  value: 'run time (s)',
  position: 'insideBottom',
  offset: -8,
  fontSize: 10,
} as const;
function yTitle(value: string) {
  return { value, angle: -90, position: 'insideLeft', offset: 10, fontSize: 10 } as const;
}
const MARGIN = { top: 4, right: 8, bottom: 14, left: 4 };

function SeriesChart(props: { r: CompareReportRow; kind: 'depth' | 'share'; maxDepth: number }) {
  const data = compareSeriesRows(props.r);
  if (data === null) return <p className="muted small">no series for this run</p>;
  const key = (label: string) => (props.kind === 'depth' ? label : `share:${label}`);
  return (
    <ResponsiveContainer width="100%" height={150}>
      <LineChart data={data.rows} margin={MARGIN}>
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} label={xTitle} {...axis} />
        <YAxis
          domain={props.kind === 'depth' ? [0, props.maxDepth] : [0, 100]}
          unit={props.kind === 'share' ? '%' : ''}
          allowDecimals={false}
          label={yTitle(props.kind === 'depth' ? 'queued' : 'charged share')}
          {...axis}
        />
        <Tooltip {...tip} labelFormatter={(v) => `${Number(v).toFixed(1)} s`} />
        <Legend wrapperStyle={{ fontSize: 10 }} verticalAlign="top" height={16} />
        {data.labels.map((label, l) => (
          <Line
            key={label}
            dataKey={key(label)}
            name={label}
            stroke={seriesColor(label, l)}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

function ApplyToLive({ r, i }: { r: CompareReportRow; i: number }) {
  const { transport, store } = useApp();
  // The live session keeps its own worker count (it may run on fewer cores than the compare).
  const { workers: _workers, ...config } = r.config;
  return (
    <button
      className="btn small"
      data-testid={`compare-apply-${i}`}
      title="send this config's policy and knobs to the running session (workers stay)"
      onClick={async () => {
        const res = await sendCommand(transport, store, { type: 'configure', config });
        if (res.ok) store.getState().setNotice({ kind: 'info', text: `applied “${r.label}” live` });
      }}
    >
      apply to live
    </button>
  );
}

/** Per config, side by side: queue depth and level share over the run. */
export function CompareSeries({ result }: { result: CompareResultWire }) {
  let maxDepth = 1;
  for (const r of result.reports)
    for (const d of r.series?.depth ?? []) for (const v of d) maxDepth = Math.max(maxDepth, v);
  return (
    <div className="compare-series" data-testid="compare-series">
      {result.reports.map((r, i) => (
        <div
          className="compare-series-col"
          key={i}
          data-testid={`compare-series-${i}`}
          data-label={r.label}
          data-points={r.series?.tMs.length ?? 0}
        >
          <header>
            <span style={{ color: CATEGORICAL[i % CATEGORICAL.length] }}>■</span> {r.label}
            <ApplyToLive r={r} i={i} />
          </header>
          <div className="muted small">queue depth per level</div>
          <SeriesChart r={r} kind="depth" maxDepth={maxDepth} />
          <div className="muted small">share of charged time per level</div>
          <SeriesChart r={r} kind="share" maxDepth={maxDepth} />
        </div>
      ))}
    </div>
  );
}

/** Per class, one latency CDF line per config, p50/p95/p99 listed. */
export function CompareCdfs({ result }: { result: CompareResultWire }) {
  const cdfs = compareCdfs(result.reports);
  if (cdfs.length === 0) return null;
  return (
    <div className="compare-series" data-testid="compare-cdfs" data-classes={cdfs.length}>
      {cdfs.map((c) => (
        <div
          className="compare-series-col"
          key={c.cls}
          data-testid={`compare-cdf-${c.cls}`}
          data-configs={c.lines.map((l) => l.config).join(',')}
        >
          <header>latency CDF · {c.cls}</header>
          {c.lines.length === 0 ? (
            <p className="muted small">no job of this class finished in the run</p>
          ) : (
            <CdfChart
              quantity="latency"
              height={170}
              lines={c.lines.map((l) => ({
                key: String(l.config),
                name: result.reports[l.config]?.label ?? `config ${l.config + 1}`,
                color: CATEGORICAL[l.config % CATEGORICAL.length]!,
                cdf: l.cdf,
              }))}
            />
          )}
          <div className="muted small">
            {c.lines
              .map(
                (l) =>
                  `${result.reports[l.config]?.label}: p50 ${formatMs(l.p50)} · p95 ${formatMs(l.p95)} · p99 ${formatMs(l.p99)}`,
              )
              .join(' | ')}
          </div>
        </div>
      ))}
    </div>
  );
}
