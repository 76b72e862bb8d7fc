/**
 * The workers panel of the cluster backend: the latest frame's workers grouped by node
 * (`workerGroups`), each node headed by its name, worker count and how many run a quantum now.
 * It renders nothing when no worker carries a node (threads, sim): the Gantt's gutter already
 * lists those workers.
 */
import { useApp } from '../context.ts';
import { STATE_COLORS } from '../data/gantt-draw.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { groupText, workerGroups, workersText } from '../data/node-lanes.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Panel } from './panel.tsx';

const NS_PER_MS = 1e6;

export function WorkersPanel() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const workers = telemetry.latest?.workers ?? [];
  const groups = workerGroups(workers);
  if (groups === null) return null;
  const nodes = groups.filter((g) => g.node !== null).length;
  const now = telemetry.nowMs;
  return (
    <Panel
      title="Workers by node"
      hint={`${nodes} ${nodes === 1 ? 'node' : 'nodes'} · ${workersText(workers.length)}`}
      testId="workers"
    >
      <table className="table compact">
        <thead>
          <tr>
            <th>worker</th>
            <th>state</th>
            <th className="num">job</th>
            <th className="num" title="backend time since its current quantum started">
              quantum
            </th>
          </tr>
        </thead>
        {groups.map((g) => (
          <tbody key={g.node ?? ''} data-testid="node-group" data-node={g.node ?? ''}>
            <tr className="node-row">
              <th colSpan={4}>{groupText(g)}</th>
            </tr>
            {g.workers.map((w) => (
              <tr key={w.id} data-testid="worker-row" data-worker={w.id} data-state={w.state}>
                <td>worker {w.id}</td>
                <td>
                  <i className="state-dot" style={{ background: STATE_COLORS[w.state] }} />
                  {w.state}
                </td>
                <td className="num">{w.jobId ?? '—'}</td>
                <td className="num">
                  {w.sinceNanos === null
                    ? '—'
                    : formatMs(Math.max(0, now - w.sinceNanos / NS_PER_MS))}
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </Panel>
  );
}
