/**
 * Where the scheduler's time went, in each policy's own unit. mlfq: the charged share per level
 * over a window the user picks, next to the multilevel queue's target (docs/design.md §3.1);
 * charged time is what the queue's shares are defined on, so this panel and the engine (and
 * `schedlab run --json`) agree. priority: charged share per band, aging boosts, wait per band.
 * fair: fair-share.tsx. fifo: queue age.
 */
import {
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
import { levelShares } from '../data/derive.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { agingText, bandWaits, queueAgeSeries } from '../data/policy-units.ts';
import { TARGET_MEANING, type ShareWindow } from '../data/target-share.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { SHARE_WINDOWS } from '../store/app-store.ts';
import { axis, Empty, markLines, tooltipStyle, useMarks } from './panel.tsx';

function WindowPicker() {
  const { windowMs, setWindow } = useAppState(
    useShallow((s) => ({ windowMs: s.shareWindowMs, setWindow: s.setShareWindow })),
  );
  return (
    <div className="segmented" role="group" aria-label="share window">
      <span className="segmented-label">window</span>
      {SHARE_WINDOWS.map((w) => (
        <button
          key={w.ms}
          className={windowMs === w.ms ? 'on' : ''}
          data-testid={`share-window-${w.ms}`}
          onClick={() => setWindow(w.ms)}
        >
          {w.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Held less than asked: after a reload, a policy switch or a reset the window is shorter. Or
 * more: where frames are further apart than the window (at 100× a frame is 10 s of engine
 * time), the share is over the last frame interval, and says so.
 */
function coverage(w: ShareWindow, windowMs: number): string {
  if (w.coveredMs + 150 < windowMs) return ` (${formatMs(w.coveredMs)} held)`;
  if (w.coveredMs > windowMs * 1.1 + 150)
    return ` (over the last ${formatMs(w.coveredMs)}: frames are that far apart)`;
  return '';
}

/** Charged share per level (mlfq) or band (priority) with the target where there is one. */
export function ChargedShare({ unit }: { unit: string }) {
  useTelemetryTick();
  const { telemetry } = useApp();
  const windowMs = useAppState((s) => s.shareWindowMs);
  const range = useAppState((s) => s.range);
  const m = telemetry.latest?.config.levelTimeMultiplier ?? 2;
  const w = levelShares(telemetry, windowMs, m, range);
  if (w === null) return <Empty />;
  if (!w.reported) {
    return (
      <>
        <WindowPicker />
        <p className="muted not-reported" data-testid="share-not-reported">
          Charged time per {unit} is not reported by this host, so no share is shown.
        </p>
      </>
    );
  }
  const hasTarget = w.rows.some((r) => r.target !== null);
  const pct = w.rows.map((r) => ({
    label: r.label,
    charged: (r.charged ?? 0) * 100,
    target: (r.target ?? 0) * 100,
  }));
  // One number for "where did the time go": lower means more time at the lower levels.
  const meanLevel = w.rows.reduce((acc, r, l) => acc + (r.charged ?? 0) * l, 0);
  const first = w.rows[0];
  return (
    <>
      <WindowPicker />
      <ResponsiveContainer width="100%" height={150}>
        <BarChart data={pct} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="label" {...axis} />
          <YAxis domain={[0, 100]} unit="%" {...axis} />
          <Tooltip {...tooltipStyle} formatter={(v) => `${Number(v).toFixed(1)} %`} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Bar dataKey="charged" name="charged" fill="var(--accent)" isAnimationActive={false} />
          {hasTarget && (
            <Bar dataKey="target" name="target" fill="var(--target)" isAnimationActive={false} />
          )}
        </BarChart>
      </ResponsiveContainer>
      <div
        className="share-readout"
        data-testid="level-share-readout"
        data-shares={w.rows.map((r) => (r.charged ?? 0).toFixed(4)).join(',')}
        data-targets={hasTarget ? w.rows.map((r) => (r.target ?? 0).toFixed(4)).join(',') : ''}
        data-covered-ms={Math.round(w.coveredMs)}
        data-from-seq={w.fromSeq ?? ''}
        data-to-seq={w.toSeq ?? ''}
        data-level0-share={first?.charged?.toFixed(4)}
        data-mean-level={meanLevel.toFixed(4)}
        data-active-levels={w.rows.filter((r) => (r.charged ?? 0) >= 0.05).length}
      >
        {w.rows
          .map(
            (r) =>
              `${r.label} ${((r.charged ?? 0) * 100).toFixed(1)} %` +
              (r.target !== null ? ` (target ${(r.target * 100).toFixed(1)} %)` : ''),
          )
          .join(' · ')}
        {range === null ? coverage(w, windowMs) : ' · over the selected range'}
      </div>
      {hasTarget && <p className="muted small share-meaning">{TARGET_MEANING}</p>}
    </>
  );
}

/** PRIO: what aging does now, how often it boosted each band, how long each band waits. */
export function PriorityDetail() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const windowMs = useAppState((s) => s.shareWindowMs);
  const f = telemetry.latest;
  if (f === null) return null;
  const waits = bandWaits(f.wait.byBand);
  // Boosts over the share window: the difference of the cumulative count between its ends.
  const w = levelShares(telemetry, windowMs, f.config.levelTimeMultiplier);
  const boosts = new Map((w?.rows ?? []).map((r) => [r.label, r.boosts]));
  const reported = w !== null && w.rows.some((r) => r.boosts !== null);
  // The span the boosts cover, where it is not the window (as the share readout says it): less
  // after a reload, policy switch or reset; more where frames are further apart than the window.
  const label =
    w !== null && coverage(w, windowMs) !== ''
      ? formatMs(w.coveredMs)
      : (SHARE_WINDOWS.find((x) => x.ms === windowMs)?.label ?? formatMs(windowMs));
  return (
    <div className="priority-detail" data-testid="priority-detail">
      <p className="muted small">
        {agingText(f.config, formatMs)}
        {reported ? '' : ' · aging boosts: not reported by this host'}
      </p>
      <table className="table compact" data-testid="band-waits">
        <thead>
          <tr>
            <th>band</th>
            {waits.map((b) => (
              <th key={b.band} className="num">
                {b.band}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {/* The Wait table's window (50–60 s), not the share window the picker sets. */}
            <td title="over the tables' window: since statsSinceNanos, 50–60 s">
              wait p95 · tables&apos; window
            </td>
            {waits.map((b) => (
              <td key={b.band} className="num" data-band={b.band} data-p95={b.p95 ?? ''}>
                {b.p95 === null ? '—' : formatMs(b.p95)}
              </td>
            ))}
          </tr>
          {reported && (
            <tr data-testid="aging-boosts">
              <td title="times aging made a waiting split of the band more urgent">
                aging boosts · {label}
              </td>
              {waits.map((b) => {
                const n = boosts.get(b.band) ?? null;
                return (
                  <td key={b.band} className="num" data-band={b.band} data-boosts={n ?? ''}>
                    {n === null ? '—' : n}
                  </td>
                );
              })}
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** FIFO: how long the oldest queued split has waited, over time. */
export function QueueAge() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const rows = queueAgeSeries(telemetry.points.tail(600));
  const marks = useMarks(rows);
  const now = telemetry.latest?.oldestWaitMs;
  if (telemetry.latest === null) return <Empty />;
  if (now === undefined || rows.length === 0) {
    return (
      <p className="muted not-reported" data-testid="share-not-reported">
        Queue age is not reported by this host.
      </p>
    );
  }
  return (
    <>
      <div className="share-readout" data-testid="queue-age" data-value={now}>
        oldest queued split has waited {formatMs(now)}
      </div>
      <ResponsiveContainer width="100%" height={150}>
        <LineChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            domain={['dataMin', 'dataMax']}
            tickFormatter={(v: number) => `${v.toFixed(0)}s`}
            {...axis}
          />
          <YAxis tickFormatter={(v: number) => formatMs(v)} {...axis} />
          <Tooltip {...tooltipStyle} formatter={(v) => formatMs(Number(v))} />
          <Line
            dataKey="age"
            name="queue age"
            stroke="var(--accent)"
            dot={false}
            isAnimationActive={false}
          />
          {markLines(marks)}
        </LineChart>
      </ResponsiveContainer>
    </>
  );
}
