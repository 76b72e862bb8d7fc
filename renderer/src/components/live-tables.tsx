/** Counters and percentile tables of the Live view: plain DOM, refreshed with the charts. */
import type { Counters, Percentiles } from '../../../shared/protocol.ts';
import { useApp } from '../context.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Panel } from './panel.tsx';

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
  return (
    <Panel
      title="Counters"
      hint={
        f === null ? '' : `jain fairness ${f.fairness.jain.toFixed(2)} over ${f.fairness.jobs} jobs`
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
            {f?.oldestWaitMs === undefined ? '—' : ms(f.oldestWaitMs)}
          </span>
          <span className="counter-label">oldest wait</span>
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

function ms(v: number): string {
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`;
  if (v >= 10) return `${v.toFixed(0)} ms`;
  return `${v.toFixed(1)} ms`;
}

function PercentileRows({ table }: { table: Record<string, Percentiles> }) {
  const entries = Object.entries(table);
  if (entries.length === 0) {
    return (
      <tr>
        <td colSpan={6} className="muted">
          no finished jobs yet
        </td>
      </tr>
    );
  }
  return (
    <>
      {entries.map(([name, p]) => (
        <tr key={name}>
          <td>{name}</td>
          <td className="num">{p.count}</td>
          <td className="num">{ms(p.p50)}</td>
          <td className="num">{ms(p.p95)}</td>
          <td className="num">{ms(p.p99)}</td>
          <td className="num">{ms(p.max)}</td>
        </tr>
      ))}
    </>
  );
}

/** The engine's alarms (urgent band waiting too long, starvation), when it raises any. */
export function Alarms() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const alarms = telemetry.latest?.alarms ?? [];
  if (alarms.length === 0) return null;
  return (
    <div className="alarms" role="alert" data-testid="alarms">
      {alarms.map((a) => (
        <div key={`${a.kind}:${a.message}`} className="alarm">
          <b>{a.kind === 'starvation' ? 'Starvation' : 'Urgent work waiting'}</b> {a.message}
        </div>
      ))}
    </div>
  );
}

export function PercentilesPanel() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const f = telemetry.latest;
  const byBand = f?.policy === 'priority';
  const pick = (
    t: { byClass: Record<string, Percentiles>; byBand: Record<string, Percentiles> } | undefined,
  ) => (t === undefined ? {} : byBand ? t.byBand : t.byClass);
  return (
    <Panel
      title="Latency and wait"
      hint={byBand ? 'per priority band' : 'per class'}
      testId="percentiles"
    >
      <div className="pct-grid">
        {(['latency', 'wait'] as const).map((kind) => (
          <table className="table" key={kind}>
            <thead>
              <tr>
                <th>{kind}</th>
                <th className="num">n</th>
                <th className="num">p50</th>
                <th className="num">p95</th>
                <th className="num">p99</th>
                <th className="num">max</th>
              </tr>
            </thead>
            <tbody>
              <PercentileRows table={pick(f?.[kind])} />
            </tbody>
          </table>
        ))}
      </div>
    </Panel>
  );
}
