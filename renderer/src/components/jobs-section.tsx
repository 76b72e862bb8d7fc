/**
 * The Live view's jobs: the warnings panel, the searchable job table and the selected job's
 * detail side by side (docs/jobs.md).
 */
import { JobDetailPanel } from './job-detail.tsx';
import { JobTable } from './job-table.tsx';
import { WarningsPanel } from './warnings-panel.tsx';

/** Rows in view at once in the Live view's table (the Workloads view fills the window). */
const LIVE_TABLE_HEIGHT = 288;

export function JobsSection() {
  return (
    <>
      <WarningsPanel />
      <div className="jobs-grid">
        <section className="panel jobs-panel" data-testid="live-jobs">
          <header>
            <h3>Jobs</h3>
            <span className="hint">search · sort by a header · click a row to follow a job</span>
          </header>
          <div className="panel-body">
            <JobTable height={LIVE_TABLE_HEIGHT} />
          </div>
        </section>
        <JobDetailPanel />
      </div>
    </>
  );
}
