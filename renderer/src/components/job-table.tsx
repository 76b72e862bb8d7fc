/**
 * The job table, virtualized: only the rows in view (plus a few) are in the DOM, whatever the
 * number of jobs the host reports. Cancel and reprioritize go straight to the engine. A search
 * (`job-search`, docs/jobs.md) shows the engine's `findJobs` answer instead of the frame's
 * bounded rows; the headers sort; a click on a row selects its job.
 */
import { useEffect, useState } from 'react';
import type { FindJobsResult, JobRow } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { refuse, sendCommand } from '../data/commands.ts';
import { priorityOf } from '../data/validate.ts';
import { canControl, readOnlyReason, type AppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { nextSort, sortJobs, type JobSort, type SortKey } from '../data/job-find.ts';
import { useJobSearch, type Answer } from '../hooks/use-job-query.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';

export const ROW_HEIGHT = 32;
const OVERSCAN = 6;

/** Whether a row's job is live (queued or running): only a live job can be changed. */
export function isLive(job: JobRow): boolean {
  return job.state === 'queued' || job.state === 'running';
}

/**
 * What a row says about how its job ended: the reason with its code (`WORKER_LOST: worker lost:
 * exit code 7`) and the thrown value's own code (`KERNEL_FAILED (code E_PROBE): Error: …`), or
 * what a one-split user-module job returned. Empty while it is live. The job detail shows the
 * same for its row, whose reason is whole.
 */
export function outcomeText(job: JobRow): string {
  if (isLive(job)) return '';
  if (job.error !== undefined) {
    const code = job.causeCode === undefined ? '' : ` (code ${job.causeCode})`;
    return job.errorCode === undefined ? job.error : `${job.errorCode}${code}: ${job.error}`;
  }
  if (job.errorCode !== undefined) return job.errorCode;
  return job.result === undefined ? '' : `→ ${job.result}`;
}

/** Which rows to render for a scroll position: [first, last) indices. */
export function visibleRows(
  scrollTop: number,
  viewport: number,
  total: number,
  rowHeight = ROW_HEIGHT,
): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN);
  return [first, Math.max(first, last)];
}

/** What the table says when it lists no job; null when the search's error under it says it. */
export function emptyText(searching: boolean, search: Answer<FindJobsResult>): string | null {
  if (!searching) return 'No jobs yet: run a preset or submit one.';
  // A refused query is an answer too: waiting on would say "searching…" forever.
  if (search.error !== null) return null;
  return search.value === null ? 'searching…' : 'No job matches.';
}

/** Sets a live job's base priority from the text of its box. */
export async function reprioritize(
  transport: Transport,
  store: AppStore,
  jobId: number,
  text: string,
): Promise<boolean> {
  const checked = priorityOf(text);
  if (!checked.ok) {
    refuse(store, 'reprioritize', checked.message);
    return false;
  }
  const r = await sendCommand(transport, store, {
    type: 'reprioritize',
    jobId,
    priority: checked.priority,
  });
  return r.ok;
}

function Row({ job, top, selected }: { job: JobRow; top: number; selected: boolean }) {
  const { transport, store } = useApp();
  const [prio, setPrio] = useState(String(job.basePriority));
  const [editing, setEditing] = useState(false);
  // Only a live job can be changed, and only on a host that takes commands (else its title says
  // why, in the words every control of a read-only console uses).
  const control = useAppState(canControl);
  const readOnly = useAppState(readOnlyReason);
  const changeable = isLive(job) && control;
  const outcome = outcomeText(job);
  // Show the engine's priority unless the user is typing a new one.
  useEffect(() => {
    if (!editing) setPrio(String(job.basePriority));
  }, [job.basePriority, editing]);
  const apply = async () => {
    if (await reprioritize(transport, store, job.id, prio)) setEditing(false);
  };
  return (
    <div
      className={selected ? 'job-row selected' : 'job-row'}
      style={{ transform: `translateY(${top}px)` }}
      aria-selected={selected}
      onClick={() => store.getState().selectJob(job.id)}
      data-testid={`job-row-${job.id}`}
      data-state={job.state}
      data-priority={job.basePriority}
    >
      <span className="num">{job.id}</span>
      <span title={job.class}>{job.class}</span>
      <span className={`state state-${job.state}`}>{job.state}</span>
      <span className="num job-minor">
        {job.splitsDone}/{job.splits}
      </span>
      <span className="num job-minor">{(job.scheduledNanos / 1e6).toFixed(1)} ms</span>
      <span
        className={`job-outcome${job.error === undefined ? '' : ' job-outcome-error'}`}
        title={outcome}
        data-testid={`job-outcome-${job.id}`}
      >
        {outcome}
      </span>
      <span className="job-actions" onClick={(e) => e.stopPropagation()}>
        <input
          aria-label={`priority of job ${job.id}`}
          data-testid={`job-priority-${job.id}`}
          value={prio}
          disabled={!changeable}
          title={readOnly}
          onChange={(e) => {
            setEditing(true);
            setPrio(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void apply();
          }}
        />
        <button
          className="btn small"
          disabled={!changeable}
          title={readOnly}
          data-testid={`job-reprioritize-${job.id}`}
          onClick={() => void apply()}
        >
          set
        </button>
        <button
          className="btn small danger"
          disabled={!changeable}
          title={readOnly}
          data-testid={`job-cancel-${job.id}`}
          onClick={() => void sendCommand(transport, store, { type: 'cancelJob', jobId: job.id })}
        >
          cancel
        </button>
      </span>
    </div>
  );
}

/**
 * Key, label, class. `job-minor` columns give way in a narrow table (jobs.css): the job's
 * detail shows them.
 */
const COLUMNS: [SortKey | null, string, string][] = [
  ['id', 'job', 'num'],
  ['class', 'class', ''],
  ['state', 'state', ''],
  ['splits', 'splits', 'num job-minor'],
  ['scheduled', 'scheduled', 'num job-minor'],
  [null, 'outcome', ''],
  [null, 'priority · actions', ''],
];

function Head({ sort, onSort }: { sort: JobSort | null; onSort: (key: SortKey) => void }) {
  return (
    <div className="job-row job-head">
      {COLUMNS.map(([key, label, cls]) =>
        key === null ? (
          <span key={label} className={cls} title={label}>
            {label}
          </span>
        ) : (
          <button
            title={label}
            key={label}
            className={`job-sort ${cls}`}
            data-testid={`job-sort-${key}`}
            aria-sort={sort?.key !== key ? 'none' : sort.descending ? 'descending' : 'ascending'}
            onClick={() => onSort(key)}
          >
            {label}
            {sort?.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
          </button>
        ),
      )}
    </div>
  );
}

/** The search box; `/` anywhere focuses it (app.tsx). */
function SearchBox({ query, onChange }: { query: string; onChange: (q: string) => void }) {
  return (
    <input
      className="job-search"
      type="search"
      data-testid="job-search"
      aria-label="search jobs"
      placeholder="search jobs: 7102 · scan · class:… tenant:… state:queued   ( / )"
      value={query}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
      }}
    />
  );
}

export function JobTable({ height: fixed }: { height?: number } = {}) {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const selected = useAppState((s) => s.selectedJob);
  const [scrollTop, setScrollTop] = useState(0);
  const query = useAppState((s) => s.jobQuery);
  const setQuery = useAppState((s) => s.setJobQuery);
  const [sort, setSort] = useState<JobSort | null>(null);
  const search = useJobSearch(query);
  const searching = query.trim() !== '';
  // Fill the window below the header and panel chrome; rows outside it are never rendered.
  const height = fixed ?? Math.max(240, window.innerHeight - 230);
  const jobs = sortJobs(searching ? (search.value?.jobs ?? []) : telemetry.jobs, sort);
  const [first, last] = visibleRows(scrollTop, height, jobs.length);
  const empty = emptyText(searching, search);
  // The host bounds the rows it sends; say how many live jobs that leaves out.
  const live = telemetry.latest?.counters.live ?? 0;
  const hidden = live - telemetry.jobs.filter(isLive).length;
  return (
    <div className="job-table" data-testid="job-table" data-rows={jobs.length}>
      <SearchBox query={query} onChange={setQuery} />
      <Head sort={sort} onSort={(key) => setSort(nextSort(sort, key))} />
      {jobs.length === 0 ? (
        empty !== null && (
          <div className="empty small" data-testid="job-table-empty">
            {empty}
          </div>
        )
      ) : (
        <div
          className="job-scroll"
          style={{ height }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: jobs.length * ROW_HEIGHT, position: 'relative' }}>
            {jobs.slice(first, last).map((job, k) => (
              <Row
                key={job.id}
                job={job}
                top={(first + k) * ROW_HEIGHT}
                selected={job.id === selected}
              />
            ))}
          </div>
        </div>
      )}
      {search.error !== null && (
        <div className="field-error small" data-testid="job-search-error">
          {search.error}
        </div>
      )}
      {searching && search.value !== null && (
        <div className="muted small table-note" data-testid="job-search-note">
          {search.value.matched.toLocaleString()} matched
          {search.value.more > 0 ? `, the first ${search.value.jobs.length} listed` : ''} · every
          live job and the last {search.value.endedKept.toLocaleString()} ended ones searched
        </div>
      )}
      {!searching && hidden > 0 && (
        <div className="muted small table-note" data-testid="job-table-note">
          {live.toLocaleString()} live jobs; the engine sends the first {telemetry.jobs.length}{' '}
          rows, so {hidden.toLocaleString()} live jobs are not listed here — search finds them.
        </div>
      )}
    </div>
  );
}
