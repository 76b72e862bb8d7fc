/** Counters and percentile tables of the Live view: plain DOM, refreshed with the charts. */
import type { Alarm, Counters } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { sendCommand } from '../data/commands.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { canControl, readOnlyReason } from '../store/app-store.ts';
import { hasSamples, pointsIn, rangeTable } from '../data/range-stats.ts';
import { alarmsToShow, figuresAgeText, statsWindowText } from '../data/stats-window.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Panel } from './panel.tsx';
import { PercentileTable } from './percentile-table.tsx';

const COUNTERS: [keyof Counters, string][] = [
  ['submitted', 'submitted'],
  ['succeeded', 'succeeded'],
  ['failed', 'failed'],
  ['cancelled', 'cancelled'],
  ['rejected', 'rejected'],
  ['live', 'live'],
  ['splitsRunning', 'running'],
  ['splitsQueued', 'queued'],
  ['splitsBlocked', 'blocked'],
  ['quanta', 'quanta'],
  ['retries', 'retries'],
];

export function CountersPanel() {
  useTelemetryTick();
  const { telemetry } = useApp();
  const f = telemetry.latest;
  const dropped = telemetry.lostSpans;
  // The figures over every live run (Jain, the oldest wait) may be a spread pass's, carried.
  const age = f === null ? null : figuresAgeText(f);
  return (
    <Panel
      title="Counters"
      hint={
        f === null
          ? ''
          : `jain fairness ${f.fairness.jain.toFixed(2)} over ${f.fairness.jobs} jobs${age === null ? '' : ` · ${age}`}`
      }
      testId="counters"
    >
      <div className="counters">
        {COUNTERS.map(([key, label]) => (
          <div
            className="counter"
            key={key}
            data-testid={`counter-${key}`}
            data-value={f?.counters[key] ?? 0}
          >
            <span className="counter-value">
              {f === null ? '—' : compact(f.counters[key] ?? 0)}
            </span>
            <span className="counter-label">{label}</span>
          </div>
        ))}
        <div className="counter" data-testid="counter-oldestWait" data-value={f?.oldestWaitMs ?? 0}>
          <span className="counter-value">
            {f?.oldestWaitMs === undefined ? '—' : formatMs(f.oldestWaitMs)}
          </span>
          <span className="counter-label" data-testid="oldestWait-age">
            {`oldest wait${age === null ? '' : ` ${age}`}`}
          </span>
        </div>
        <div className="counter" data-testid="counter-dropped" data-value={dropped}>
          <span className={dropped > 0 ? 'counter-value warn' : 'counter-value'}>
            {compact(dropped)}
          </span>
          <span className="counter-label">spans dropped</span>
        </div>
      </div>
    </Panel>
  );
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

const ALARM_TITLES: Record<Alarm['kind'], string> = {
  'urgent-wait': 'Urgent work waiting',
  starvation: 'Starvation',
  'stuck-worker': 'Stuck worker',
  'cluster-redis': "Cluster's Redis",
};

/**
 * The engine's alarms (urgent band waiting too long, starvation, stuck workers) while they hold,
 * durations written like the rest of the UI; the region is always there (empty when all is well).
 */
export function Alarms() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const connected = useAppState((s) => s.status === 'open');
  const alarms = alarmsToShow(
    telemetry.latest?.alarms,
    connected,
    Date.now() - telemetry.receivedAtMs,
  );
  return (
    <div className="alarms" role="alert" data-testid="alarms" data-count={alarms.length}>
      {alarms.map((a) => (
        <div key={`${a.kind}:${a.message}`} className="alarm">
          <b>{ALARM_TITLES[a.kind]}</b> {a.message}
        </div>
      ))}
    </div>
  );
}

function ResetStats() {
  const { transport, store } = useApp();
  const control = useAppState(canControl);
  const readOnly = useAppState(readOnlyReason);
  return (
    <button
      className="btn small"
      data-testid="reset-stats"
      disabled={!control}
      title={readOnly ?? 'start the latency and wait windows again from now'}
      onClick={() => void sendCommand(transport, store, { type: 'resetStats' })}
    >
      reset
    </button>
  );
}

/** One percentile table (latency or wait), per class, or per priority band under priority. */
function PercentilesPanel({ kind }: { kind: 'latency' | 'wait' }) {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const range = useAppState((s) => s.range);
  const f = telemetry.latest;
  const byBand = f?.policy === 'priority';
  const by = byBand ? 'byBand' : 'byClass';
  // Over a selected range: the samples that ended in it, from the frames' histograms.
  const inRange = range === null ? null : pointsIn(telemetry.points.toArray(), range);
  const table =
    inRange !== null && hasSamples(inRange)
      ? rangeTable(inRange, kind, by)
      : inRange !== null || f === null
        ? {}
        : f[kind][by];
  const what = kind === 'latency' ? 'Latency (submit to end)' : 'Wait (ready to running)';
  const windowText =
    inRange !== null
      ? hasSamples(inRange)
        ? 'ended in the selected range'
        : 'this host does not report samples for ranges'
      : f === null
        ? ''
        : statsWindowText(f);
  return (
    <Panel
      title={what}
      hint={`${byBand ? 'per priority band' : 'per class'} · ${windowText}`}
      testId={kind}
      actions={<ResetStats />}
    >
      <PercentileTable
        testId={`${kind}-table`}
        data={{
          'data-source': range === null ? 'live' : 'range',
          'data-total': Object.values(table).reduce((n, p) => n + p.count, 0),
        }}
        keyTitle={byBand ? 'band' : 'class'}
        withMax
        rows={Object.entries(table).map(([key, p]) => ({ key, ...p }))}
        empty="no samples in this window"
      />
    </Panel>
  );
}

export function LatencyPanel() {
  return <PercentilesPanel kind="latency" />;
}

export function WaitPanel() {
  return <PercentilesPanel kind="wait" />;
}
