/**
 * The fair policy's share panel: each fairness group's share of the service (at the grouping the
 * policy uses: split, task, job or tenant), the same per job class, and Jain's index over the
 * groups (docs/metrics.md "fair groups").
 */
import { useApp } from '../context.ts';
import {
  classShares,
  fairGroupShares,
  groupShares,
  type GroupShare,
} from '../data/policy-units.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Empty } from './panel.tsx';

/**
 * A horizontal bar per row of shares (fair groups, classes), each named beside it. Plain
 * elements, not a chart: a chart's category axis leaves out the names that do not fit its
 * height, and a bar without its group's name says nothing.
 */
function ShareBars({ rows, testId }: { rows: GroupShare[]; testId: string }) {
  return (
    <div
      className="share-bars"
      data-testid={testId}
      data-shares={rows.map((r) => `${r.label}=${r.share.toFixed(4)}`).join(';')}
    >
      {rows.map((r) => {
        const pct = `${(r.share * 100).toFixed(1)} %`;
        return (
          <div className="share-bar" key={r.label} title={`${r.label}: ${pct} of the service`}>
            <span className="share-bar-label">{r.label}</span>
            <span className="share-bar-track">
              <span className="share-bar-fill" style={{ width: `${r.share * 100}%` }} />
            </span>
            <span className="num">{pct}</span>
          </div>
        );
      })}
    </div>
  );
}

/**
 * Fair: each fairness group's share of the service groups with live work have had, at the
 * grouping the policy uses (split, task, job or tenant), Jain's index over them, and the same
 * service per job class. A host without `fairGroups` gets the per-job view.
 */
export function FairShare({ unit }: { unit: string }) {
  useTelemetryTick();
  const { telemetry } = useApp();
  const f = telemetry.latest;
  if (f === null) return <Empty />;
  const g = f.fairGroups;
  if (g === undefined) {
    const rows = groupShares(f.jobs);
    return (
      <>
        <div className="share-readout" data-testid="jain" data-value={f.fairness.jain.toFixed(4)}>
          Jain’s index {f.fairness.jain.toFixed(3)} over {f.fairness.jobs} live jobs (1 = equal
          service for their age)
        </div>
        {rows.length === 0 ? (
          <p className="muted">no live job has run yet</p>
        ) : (
          <ShareBars rows={rows} testId="fair-groups" />
        )}
        {unit !== 'job' && (
          <p className="muted small">
            Fairness is per {unit}; this host reports service per job, so this is the per-job view.
          </p>
        )}
      </>
    );
  }
  const groups = fairGroupShares(g);
  const classes = classShares(g);
  return (
    <>
      <div
        className="share-readout"
        data-testid="jain"
        data-value={g.jain.toFixed(4)}
        data-unit={g.unit}
        data-groups={g.count}
      >
        Jain’s index {g.jain.toFixed(3)} over {g.count} {g.unit}
        {g.count === 1 ? '' : 's'} with live work (1 ={' '}
        {g.weighted === undefined
          ? 'equal service for the time they had work'
          : 'service in proportion to weight for the time they had work'}
        )
      </div>
      {groups.length === 0 ? (
        <p className="muted">no {g.unit} with live work has run yet</p>
      ) : (
        <ShareBars rows={groups} testId="fair-groups" />
      )}
      {classes.length > 1 && (
        <>
          <p className="muted small">by job class (live jobs’ service)</p>
          <ShareBars rows={classes} testId="fair-classes" />
        </>
      )}
    </>
  );
}
