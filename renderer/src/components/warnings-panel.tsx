/**
 * Jobs that look wrong right now, each with the rule that flagged it (tokio-console's warnings;
 * the rules are the engine's, docs/jobs.md "Warnings"). A click selects the job.
 */
import { WARNING_RULES, type JobWarning } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { figuresAgeText } from '../data/stats-window.ts';

/** The rules in a line, for the empty panel: what would be listed. */
const RULE_HINT: Record<(typeof WARNING_RULES)[number], string> = {
  starving: 'waited past the starvation bound',
  overrun: 'a quantum overran by more than runawayAfterMs',
  'slow-split': 'ran over 10× its class’s median, 3× its p99 and 1 s',
  retries: 'retried more than 3 times',
};

function Row({ w, selected }: { w: JobWarning; selected: boolean }) {
  const selectJob = useAppState((s) => s.selectJob);
  return (
    <li>
      <button
        className={selected ? 'warning-row selected' : 'warning-row'}
        data-testid={`warning-${w.jobId}-${w.rule}`}
        onClick={() => selectJob(w.jobId)}
      >
        <span className={`rule rule-${w.rule}`}>{w.rule}</span>
        <b>job {w.jobId}</b>
        <span className="muted">{w.class}</span>
        <span>{w.message}</span>
      </button>
    </li>
  );
}

export function WarningsPanel() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const selected = useAppState((s) => s.selectedJob);
  const warnings = telemetry.latest?.warnings ?? [];
  const more = telemetry.latest?.warningsMore ?? 0;
  const age = telemetry.latest === null ? null : figuresAgeText(telemetry.latest);
  return (
    <section className="panel warnings" data-testid="warnings" data-count={warnings.length + more}>
      <header>
        <h3>Warnings</h3>
        <span className="hint">
          live jobs that look wrong {age ?? 'now'} · click one to follow it
        </span>
      </header>
      <div className="panel-body">
        {warnings.length === 0 ? (
          <div className="muted small">
            No job looks wrong now. Listed would be jobs with a split that{' '}
            {WARNING_RULES.map((r) => `${RULE_HINT[r]} (${r})`).join('; ')}.
          </div>
        ) : (
          <ul className="warning-list">
            {warnings.map((w) => (
              <Row key={`${w.jobId}-${w.rule}`} w={w} selected={w.jobId === selected} />
            ))}
          </ul>
        )}
        {more > 0 && <div className="muted small">{`and ${more} more`}</div>}
      </div>
    </section>
  );
}
