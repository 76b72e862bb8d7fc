/**
 * The text report's section on a graph run: each graph's nodes by how they ended, and the figures
 * `--json` carries in `dags[]` and `dag` (work W, critical path CP, lower bound, efficiency, the
 * Graham ratio, steals), as docs/metrics.md defines them. Without it the text said only that a
 * graph failed, and none of the figures a graph run is for.
 */
import type { RunReport } from './report.ts';
import { fmtMs, table } from './table.ts';

/** Lines to add; none for a run of jobs. */
export function formatGraphSection(r: RunReport): string[] {
  const dags = r.dags;
  if (dags === undefined || dags.length === 0 || r.dag === undefined) return [];
  const figures = (d: NonNullable<RunReport['dag']>) => [
    fmtMs(d.workMs),
    fmtMs(d.criticalPathMs),
    fmtMs(d.lowerBoundMs),
    d.efficiency.toFixed(3),
    d.grahamRatio.toFixed(3),
    String(d.steals),
  ];
  const rows = dags.map((d) => [
    d.name,
    d.policy === undefined ? d.executor : `${d.executor} ${d.policy}`,
    String(d.nodes),
    String(d.nodes - d.failed - d.cancelled - d.skipped),
    String(d.failed),
    String(d.cancelled),
    String(d.skipped),
    ...figures(d),
  ]);
  if (dags.length > 1) rows.push(['all', '', '', '', '', '', '', ...figures(r.dag)]);
  const header = ['graph', 'executor', 'nodes', 'ok', 'failed', 'cancelled', 'skipped'];
  const out = ['', table([...header, 'W', 'CP', 'LB', 'efficiency', 'Graham', 'steals'], rows)];
  for (const d of dags) {
    if (d.rootCause !== undefined)
      out.push(`${d.name}: root cause ${d.rootCause.node}: ${d.rootCause.message}`);
  }
  return out;
}
