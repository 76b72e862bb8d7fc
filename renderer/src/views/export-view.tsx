/** Export: a Perfetto trace of a time window and the CSV of the series, downloaded via Blob. */
import { useState } from 'react';
import { useApp } from '../context.ts';
import { download, seriesCsv } from '../data/csv-export.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { buildTrace } from '../data/trace-export.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';

const WINDOWS = [
  { label: 'visible Gantt window', ms: 0 },
  { label: 'last 5 s', ms: 5000 },
  { label: 'last 30 s', ms: 30_000 },
  { label: 'everything retained', ms: Infinity },
];

export function ExportView() {
  useTelemetryTick(1000);
  const { telemetry, viewport } = useApp();
  const [choice, setChoice] = useState(0);
  const [last, setLast] = useState<string | null>(null);
  const extent = telemetry.spans.extent();
  const now = telemetry.nowMs;

  const range = (): [number, number] => {
    const w = WINDOWS[choice]!;
    if (w.ms === 0) return [viewport.endMs - viewport.windowMs, viewport.endMs];
    if (w.ms === Infinity) return [extent?.startMs ?? 0, now];
    return [now - w.ms, now];
  };

  const exportTrace = () => {
    const [from, to] = range();
    const doc = buildTrace(telemetry, from, to);
    download(
      `schedlab-trace-${Math.round(from)}-${Math.round(to)}ms.json`,
      JSON.stringify(doc),
      'application/json',
    );
    setLast(`trace: ${String(doc.metadata.spans)} quanta, ${formatMs(to - from)} window`);
  };
  const exportCsv = () => {
    const points = telemetry.points.toArray();
    download(
      'schedlab-series.csv',
      seriesCsv(points, telemetry.latest?.levels.length ?? 5, {
        policy: telemetry.latest?.policy,
        config: telemetry.latest?.config,
      }),
      'text/csv',
    );
    setLast(`csv: ${points.length} frames`);
  };

  return (
    <div className="export" data-testid="view-export">
      <section className="panel">
        <header>
          <h3>Perfetto trace</h3>
          <span className="hint">Chrome trace-event JSON · open at ui.perfetto.dev</span>
        </header>
        <div className="panel-body">
          <p className="muted">
            One thread per worker, a slice per quantum (job, task, split, level, outcome), counters
            for queue depth, each level's charged time and its level clock, and a marker for every
            knob change.
          </p>
          <div className="radio-row" role="radiogroup" aria-label="trace window">
            {WINDOWS.map((w, i) => (
              <label key={w.label} className={choice === i ? 'chip active' : 'chip'}>
                <input
                  type="radio"
                  name="window"
                  checked={choice === i}
                  onChange={() => setChoice(i)}
                />
                {w.label}
              </label>
            ))}
          </div>
          <p className="muted small">
            Retained: {telemetry.spans.size.toLocaleString()} quanta
            {extent !== null && <> over {formatMs(extent.endMs - extent.startMs)}</>}
            {telemetry.spans.overwritten > 0 && <> (older ones rolled out of the buffer)</>}.
          </p>
          <button
            className="btn primary"
            data-testid="export-trace"
            disabled={telemetry.latest === null}
            onClick={exportTrace}
          >
            Download trace
          </button>
        </div>
      </section>
      <section className="panel">
        <header>
          <h3>Series CSV</h3>
          <span className="hint">one row per frame</span>
        </header>
        <div className="panel-body">
          <p className="muted">
            Queue depth, level clock, charged time and selections per level, utilization and job
            counters for the last {telemetry.points.size} frames.
          </p>
          <button
            className="btn"
            data-testid="export-csv"
            disabled={telemetry.points.size === 0}
            onClick={exportCsv}
          >
            Download CSV
          </button>
        </div>
      </section>
      {last !== null && (
        <div className="ok-line" data-testid="export-status">
          exported {last}
        </div>
      )}
    </div>
  );
}
