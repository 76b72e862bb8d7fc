/**
 * The selected job in full (docs/jobs.md "Following a job"): its outcome, each split's timeline
 * (queued, waiting, running quanta coloured by level or band, blocked, retry backoff), its waits
 * and its priority changes, from the engine's `jobDetail` answer. `Esc` closes it.
 */
import type { JobDetail, SplitDetail } from '../../../shared/protocol.ts';
import { SEGMENT_KINDS } from '../../../shared/protocol.ts';
import type { PolicyName } from '../../../shared/config.ts';
import { formatMs } from '../../../shared/lib/format.ts';
import { useApp, useAppState } from '../context.ts';
import { changeText, jobAxis, splitBars } from '../data/job-find.ts';
import { levelColor } from '../data/palette.ts';
import { useJobDetail } from '../hooks/use-job-query.ts';
import { outcomeText } from './job-table.tsx';

const ms = (nanos: number) => formatMs(nanos / 1e6);

function SplitRow(props: {
  split: SplitDetail;
  axis: [number, number];
  now: number;
  policy: PolicyName | null;
}) {
  const { split: s } = props;
  const bars = splitBars(s, props.axis, props.now, props.policy);
  return (
    <div className="split-row" data-testid={`job-detail-split-${s.splitId}`} data-state={s.state}>
      <div className="split-facts">
        <b>split {s.splitId}</b> <span className={`state state-${s.state}`}>{s.state}</span> · wait{' '}
        {ms(s.waitNanos)} · scheduled {ms(s.scheduledNanos)} · {s.quanta} quanta
        {s.retries > 0 ? ` · ${s.retries} retries` : ''}
        {s.errorCode !== undefined ? ` · ${s.errorCode}` : ''}
        {s.segmentsCut > 0 ? ` · ${s.segmentsCut} older stretches not shown` : ''}
      </div>
      <div className="split-timeline" aria-label={`timeline of split ${s.splitId}`}>
        {bars.map((b, i) => (
          <i
            key={i}
            className={`seg seg-${b.kind}`}
            title={b.title}
            style={{
              left: `${b.left}%`,
              width: `${b.width}%`,
              ...(b.level === null ? {} : { background: levelColor(b.level) }),
            }}
          />
        ))}
      </div>
    </div>
  );
}

/** One answer drawn (exported for tests: the panel asks the engine for it). */
export function JobDetailBody({
  d,
  now,
  policy,
}: {
  d: JobDetail;
  now: number;
  policy: PolicyName | null;
}) {
  const job = d.job;
  const axis = jobAxis(job, d.splits, now);
  const waits = d.splits.reduce((n, s) => n + s.waitNanos, 0);
  const outcome = outcomeText(job);
  return (
    <>
      <div className="detail-facts">
        <span className={`state state-${job.state}`}>{job.state}</span>
        <span>class {job.class}</span>
        {job.tenant !== undefined && <span>tenant {job.tenant}</span>}
        <span>priority {job.basePriority}</span>
        <span>
          splits {job.splitsDone}/{job.splits}
        </span>
        {/* Its charged time: run time, or CPU time under `chargeTime: cpu` — not always "ran". */}
        <span title="time charged to it: wall time of its quanta, or their CPU time under chargeTime cpu">
          scheduled {ms(job.scheduledNanos)}
        </span>
        <span>waited {ms(waits)} (splits shown)</span>
        <span>
          {job.endNanos === null ? 'running for' : 'took'} {ms(axis[1] - job.submitNanos)}
        </span>
      </div>
      {outcome !== '' && (
        <div
          className={
            job.error === undefined ? 'detail-outcome' : 'detail-outcome job-outcome-error'
          }
          data-testid="job-detail-outcome"
        >
          {outcome}
        </div>
      )}
      {!d.complete && (
        <div className="muted small">
          The engine’s job trail no longer holds this job’s start: timelines begin{' '}
          {ms(Math.max(0, d.trailSinceNanos - job.submitNanos))} after its submission.
        </div>
      )}
      {d.warnings.map((w) => (
        <div key={w.rule} className="alarm small" data-testid={`job-detail-warning-${w.rule}`}>
          <b>{w.rule}</b> {w.message}
        </div>
      ))}
      <div className="seg-legend small">
        {SEGMENT_KINDS.map((k) => (
          <span key={k}>
            <i className={`seg-key seg-${k}`} />
            {k === 'running' ? `running (colour: ${policy === 'priority' ? 'band' : 'level'})` : k}
          </span>
        ))}
        <span className="muted">
          {ms(0)} → {ms(axis[1] - axis[0])} from submission
        </span>
      </div>
      <div className="split-list">
        {d.splits.map((s) => (
          <SplitRow key={s.splitId} split={s} axis={axis} now={now} policy={policy} />
        ))}
        {d.splitsMore > 0 && (
          <div className="muted small">{d.splitsMore} more splits not shown</div>
        )}
      </div>
      <div className="detail-changes small" data-testid="job-detail-changes">
        <b>priority changes</b>
        {d.changes.length === 0 ? (
          <span className="muted"> none</span>
        ) : (
          <ul>
            {d.changes.map((c, i) => (
              <li key={i}>
                {ms(c.timeNanos - job.submitNanos)}: {changeText(c)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

export function JobDetailPanel() {
  const { telemetry } = useApp();
  const selected = useAppState((s) => s.selectedJob);
  const policy = useAppState((s) => s.policy);
  const selectJob = useAppState((s) => s.selectJob);
  const answer = useJobDetail(selected);
  if (selected === null) return null;
  const d = answer.value;
  return (
    <section
      className="panel job-detail"
      data-testid="job-detail"
      data-job-id={selected}
      data-splits={d?.splits.length ?? 0}
    >
      <header>
        <h3>Job {selected}</h3>
        <span className="hint">its splits over time · Esc closes</span>
        <button
          className="btn small"
          data-testid="job-detail-close"
          onClick={() => selectJob(null)}
        >
          ✕
        </button>
      </header>
      <div className="panel-body">
        {answer.error !== null ? (
          <div className="field-error">{answer.error}</div>
        ) : d === null || d.job.id !== selected ? (
          <div className="muted">asking the engine…</div>
        ) : (
          <JobDetailBody d={d} now={telemetry.latest?.timeNanos ?? 0} policy={policy} />
        )}
      </div>
    </section>
  );
}
