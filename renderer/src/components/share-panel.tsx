/**
 * Where the scheduler's time went: the charged share per level over a window the user picks, next
 * to the multilevel queue's target (docs/design.md §3.1). Charged time is what the queue's shares
 * are defined on, so this panel and the engine (and `schedlab run --json`) agree.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../context.ts';
import { levelShares } from '../data/derive.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { TARGET_MEANING, type ShareWindow } from '../data/target-share.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { SHARE_WINDOWS } from '../store/app-store.ts';
import { axis, Empty, Panel, tooltipStyle } from './panel.tsx';

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

/** Held less than asked: after a reload, a policy switch or a reset the window is shorter. */
function coverage(w: ShareWindow, windowMs: number): string {
  return w.coveredMs + 150 < windowMs ? ` (${formatMs(w.coveredMs)} held)` : '';
}

/** Charged share per level (mlfq) or band (priority) with the target where there is one. */
export function ChargedShare({ unit }: { unit: string }) {
  useTelemetryTick();
  const { telemetry } = useApp();
  const windowMs = useAppState((s) => s.shareWindowMs);
  const m = telemetry.latest?.config.levelTimeMultiplier ?? 2;
  const w = levelShares(telemetry, windowMs, m);
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
        {coverage(w, windowMs)}
      </div>
      {hasTarget && <p className="muted small share-meaning">{TARGET_MEANING}</p>}
    </>
  );
}
