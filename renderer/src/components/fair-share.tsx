/**
 * The fair policy's share panel: each fairness group's share of the service (at the grouping the
 * policy uses: split, task, job or tenant), the same per job class, and Jain's index over the
 * groups (docs/metrics.md "fair groups").
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useApp } from '../context.ts';
import {
  classShares,
  fairGroupShares,
  groupShares,
  type GroupShare,
} from '../data/policy-units.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { axis, Empty, tooltipStyle } from './panel.tsx';

/** A horizontal bar per row of shares (fair groups, classes). */
function ShareBars({ rows, testId }: { rows: GroupShare[]; testId: string }) {
  const data = rows.map((r) => ({ ...r, pct: r.share * 100 }));
  return (
    <div
      data-testid={testId}
      data-shares={rows.map((r) => `${r.label}=${r.share.toFixed(4)}`).join(';')}
    >
      <ResponsiveContainer width="100%" height={Math.max(60, 18 * data.length + 24)}>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis type="number" domain={[0, 100]} unit="%" {...axis} />
          <YAxis type="category" dataKey="label" width={130} {...axis} />
          <Tooltip {...tooltipStyle} formatter={(v) => `${Number(v).toFixed(1)} %`} />
          <Bar dataKey="pct" name="service" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
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
          ? 'equal service for their age'
          : 'service in proportion to weight for their age'}
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
