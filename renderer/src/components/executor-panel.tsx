/**
 * Trino's executor in the Live view: its statistics (leaf splits admitted, blocked and unblocked
 * quantum wall times, tasks per level), the split concurrency controller's tasks when it is on,
 * and the runaway splits with a button that interrupts one (`interruptSplit`).
 */
import type { RunawaySplit } from '../../../shared/protocol.ts';
import { useApp } from '../context.ts';
import { sendCommand } from '../data/commands.ts';
import { executorPanelRows } from '../data/executor-panel.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { canControl, readOnlyReason, type AppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { Panel } from './panel.tsx';

function Rows({ rows }: { rows: string[][] }) {
  return (
    <>
      {rows.map((r) => (
        <tr key={r[0]}>
          {r.map((cell, i) => (
            <td key={i}>{cell}</td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** One runaway split: how far past its quantum it has run, and a button that interrupts it. */
export function RunawaySplitRow({
  split: r,
  transport,
  store,
}: {
  split: RunawaySplit;
  transport: Transport;
  store: AppStore;
}) {
  return (
    <div className="alarm" data-testid="runaway-split">
      split {r.splitId} (job {r.jobId}) on worker {r.workerId}, {formatMs(r.overrunMs)} over{' '}
      <button
        className="btn small"
        data-testid={`interrupt-${r.splitId}`}
        // Redrawn with the panel's tick, which reads the store again.
        disabled={!canControl(store.getState())}
        title={readOnlyReason(store.getState())}
        onClick={() =>
          void sendCommand(transport, store, { type: 'interruptSplit', splitId: r.splitId })
        }
      >
        interrupt
      </button>
    </div>
  );
}

export function ExecutorPanel() {
  useTelemetryTick(500);
  const { telemetry, transport, store } = useApp();
  const f = telemetry.latest;
  const rows = executorPanelRows(f);
  if (rows === null) return null;
  const runaway = f?.runawaySplits ?? [];
  return (
    <Panel title="Trino executor" hint={`leaf splits ${rows.leafSplits}`} testId="executor-stats">
      <table className="table">
        <thead>
          <tr>
            <th>quantum wall</th>
            <th>quanta</th>
            <th>p50</th>
            <th>p95</th>
            <th>max</th>
          </tr>
        </thead>
        <tbody>
          <Rows rows={rows.quanta} />
        </tbody>
      </table>
      <table className="table">
        <thead>
          <tr>
            <th>tasks at level</th>
            {rows.levels[0]!.slice(1).map((_, i) => (
              <th key={i}>L{i}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          <Rows rows={rows.levels} />
        </tbody>
      </table>
      {rows.tasks.length > 0 && (
        <table className="table" data-testid="task-concurrency">
          <thead>
            <tr>
              <th>task</th>
              <th>class</th>
              <th>leaves running / target</th>
              <th>buffer</th>
            </tr>
          </thead>
          <tbody>
            <Rows rows={rows.tasks} />
          </tbody>
        </table>
      )}
      {runaway.map((r) => (
        <RunawaySplitRow key={r.splitId} split={r} transport={transport} store={store} />
      ))}
    </Panel>
  );
}
