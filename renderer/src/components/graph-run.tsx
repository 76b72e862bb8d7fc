/**
 * The session's graph run (docs/design.md §3.4), when a graph preset or document is running: state,
 * node counts, makespan and, once it ends, the bounds it is judged against. Says plainly when the
 * Gantt shows a sample (the stealing executor records one node in `sampleEvery`).
 */
import { NODE_STATES } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { showGraphPanel } from '../data/preset-switch.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Panel } from './panel.tsx';

export function GraphRunPanel() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const dismissed = useAppState((s) => s.dismissedGraphJob);
  const g = telemetry.latest?.graph;
  if (g === undefined || g === null || !showGraphPanel(g, dismissed)) return null;
  const m = g.metrics;
  return (
    <Panel
      title={`Graph run · ${g.name}`}
      hint={`${g.executor} executor · ${g.policy} · ${g.errorMode} · graph ${g.graph + 1} of ${g.graphs}`}
      testId="graph-run"
    >
      <div className="counters">
        <div className="counter wide" data-testid="graph-state" data-value={g.state}>
          <span className={`counter-value state-${g.state}`}>{g.state}</span>
          <span className="counter-label">state · {formatMs(g.makespanMs)}</span>
        </div>
        {NODE_STATES.map((s) => (
          <div className="counter" key={s}>
            <span className="counter-value">{g.nodes[s].toLocaleString()}</span>
            <span className="counter-label">{s}</span>
          </div>
        ))}
      </div>
      {m !== null && (
        <p className="muted small graph-metrics" data-testid="graph-metrics">
          makespan {formatMs(m.makespanMs)} · work {formatMs(m.workMs)} · critical path{' '}
          {formatMs(m.criticalPathMs)} · lower bound {formatMs(m.lowerBoundMs)} · efficiency{' '}
          {m.efficiency.toFixed(2)} · Graham ratio {m.grahamRatio.toFixed(2)} · utilization{' '}
          {(m.utilization * 100).toFixed(0)} % · steals {m.steals.toLocaleString()}
        </p>
      )}
      {g.sampleEvery > 1 && (
        <p className="muted small">
          The Gantt shows one node in {g.sampleEvery} (tiny nodes are sampled), drawn when each
          graph ends.
        </p>
      )}
      {g.error !== null && <div className="field-error">{g.error}</div>}
    </Panel>
  );
}
