/**
 * The tenants panel: each tenant the engine holds (`Frame.tenants`: a library service's
 * `run(…, { tenant })`, a workload class's `tenant`), with its live jobs, its scheduled time, the
 * jobs its bound turned away and its weight (docs/metrics.md "tenants"). Under every policy, not
 * only `fair`: how much each tenant got is the question a tenant-fair pool is asked. It renders
 * nothing while the engine holds no tenant.
 */
import { JOB_QUERY_MAX_CHARS } from '../../../shared/lib/job-query.ts';
import { useApp, useAppState } from '../context.ts';
import { formatMs } from '../data/gantt-viewport.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { Panel } from './panel.tsx';

const NS_PER_MS = 1e6;

export function TenantsPanel() {
  useTelemetryTick(500);
  const { telemetry } = useApp();
  const f = telemetry.latest;
  const rows = f?.tenants;
  if (f === null || rows === undefined || rows.length === 0) return null;
  const more = f.tenantsMore ?? 0;
  const total = rows.length + more;
  const bound = f.config.maxLivePerTenant;
  return (
    <Panel
      title="Tenants"
      hint={`${total} ${total === 1 ? 'tenant' : 'tenants'}${more > 0 ? ` · ${more} more not shown` : ''} · ${bound === null ? 'no per-tenant bound' : `at most ${bound} live jobs each`}`}
      testId="tenants"
    >
      <table className="table compact">
        <thead>
          <tr>
            <th>tenant</th>
            <th className="num" title="its jobs not ended: waiting or running">
              live jobs
            </th>
            <th className="num" title="time of all its quanta since it was first seen">
              scheduled
            </th>
            <th
              className="num"
              title="its jobs rejected at submission (maxLivePerTenant, maxQueued)"
            >
              rejected
            </th>
            <th className="num" title="its share under fair (1 unless set)">
              weight
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr
              key={t.name}
              data-testid="tenant-row"
              data-tenant={t.name}
              data-live={t.liveJobs}
              data-rejected={t.rejectedJobs}
              data-scheduled-ms={t.scheduledNanos / NS_PER_MS}
              data-weight={t.weight}
            >
              <td>
                <TenantName name={t.name} />
              </td>
              <td className="num">{t.liveJobs}</td>
              <td className="num">{formatMs(t.scheduledNanos / NS_PER_MS)}</td>
              <td className={t.rejectedJobs > 0 ? 'num warn' : 'num'}>{t.rejectedJobs}</td>
              <td className="num">×{t.weight}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

/**
 * A tenant's name; a click searches the job table for its jobs (`tenant:<name>`, docs/jobs.md),
 * rejected ones included while the engine remembers them. A name a search term cannot hold (a
 * space in it, or too long) is plain text.
 */
function TenantName({ name }: { name: string }) {
  const setQuery = useAppState((s) => s.setJobQuery);
  const query = `tenant:${name}`;
  if (/\s/.test(name) || query.length > JOB_QUERY_MAX_CHARS) return <>{name}</>;
  return (
    <button
      className="link-button"
      data-testid="tenant-jobs"
      title={`search the jobs for ${query}`}
      onClick={() => {
        setQuery(query);
        document.querySelector('[data-testid="job-search"]')?.scrollIntoView({ block: 'center' });
      }}
    >
      {name}
    </button>
  );
}
