/**
 * Latency and wait distributions per class (per band under priority): one CDF line per key over
 * the selected range, or while live over the tables' window, with p50/p95/p99 marked. Drawn from
 * the frames' histogram buckets, the same histogram the tables read (`data/range-stats.ts`).
 */
import { useState } from 'react';
import { ReferenceDot } from 'recharts';
import { useApp, useAppState } from '../context.ts';
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
import { CdfChart, CDF_FLOOR_MS } from './cdf-chart.tsx';
import { Empty, Panel } from './panel.tsx';
import { PercentileTable } from './percentile-table.tsx';

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
  // While live: the tables' window (statsSinceNanos). Its waits are those that ended (a frame's
  // samples); the Wait table also counts those under way, so its counts can be the higher.
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
    cdf: cdfOf(s),
    p: summaryPercentiles(s),
  }));
  const reported = hasSamples(points) || f === null || f.samples !== undefined;
  // Frames the host skipped for this client carried samples that never arrived: the tables (the
  // host's own) count them, this panel cannot.
  const skipped = points.reduce((n, p) => n + (p.skippedBefore ?? 0), 0);
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
      {skipped > 0 && (
        <p className="muted" data-testid="distributions-skipped" data-frames={skipped}>
          {skipped} frame{skipped === 1 ? '' : 's'} in this window skipped for this client (it read
          too slowly): their samples are not in these distributions, which may count fewer than the
          tables
        </p>
      )}
      {!reported ? (
        <p className="muted">This host does not report samples, so no distribution is drawn.</p>
      ) : lines.length === 0 ? (
        // Frames may be arriving with none yet (after a reset): say so, not "waiting for frames".
        <Empty
          testId="distributions-empty"
          {...(f === null
            ? {}
            : {
                text: `no ${kind} samples ${range === null ? 'in the tables’ window yet' : 'in the selected range'}`,
              })}
        />
      ) : (
        <div
          data-testid="distribution-chart"
          data-kind={kind}
          data-keys={lines.map((l) => l.key).join(',')}
          data-counts={lines.map((l) => l.p.count).join(',')}
          data-p95={lines.map((l) => l.p.p95).join(',')}
        >
          <CdfChart
            lines={lines.map((l) => ({ ...l, name: `${l.key} (n ${l.p.count})` }))}
            quantity={kind}
            height={190}
          >
            {lines.flatMap((l) =>
              MARKS.map((m) => (
                <ReferenceDot
                  key={`${l.key}:${m.key}`}
                  x={Math.max(CDF_FLOOR_MS, l.p[m.key])}
                  y={m.p}
                  r={m.shape}
                  fill={l.color}
                  stroke="var(--surface)"
                  ifOverflow="extendDomain"
                />
              )),
            )}
          </CdfChart>
          <PercentileTable
            className="table compact"
            testId="distribution-marks"
            keyTitle={byBand ? 'band' : 'class'}
            rows={lines.map((l) => ({ key: l.key, color: l.color, ...l.p }))}
          />
        </div>
      )}
    </Panel>
  );
}
