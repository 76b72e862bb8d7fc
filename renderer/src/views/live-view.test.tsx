import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import type { PolicyName } from '../../../shared/config.ts';
import type { FairGroupRow, FairGroups, TenantRow, WorkerRow } from '../../../shared/protocol.ts';
import { syntheticFrame, type SyntheticFrameOptions } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { LiveView } from './live-view.tsx';

/** The Live view rendered once (server-side) over one frame of `policy` (after `earlier`). */
function render(
  policy: PolicyName,
  workerRows?: WorkerRow[],
  earlier: Omit<SyntheticFrameOptions, 'seq'>[] = [],
  extra: Partial<SyntheticFrameOptions> = {},
): string {
  const telemetry = new Telemetry();
  earlier.forEach((o, i) =>
    telemetry.ingestFrame(syntheticFrame({ ...o, seq: i + 1, config: { policy } })),
  );
  const frame = syntheticFrame({
    seq: earlier.length + 1,
    timeMs: 1000,
    config: { policy },
    ...(workerRows === undefined ? {} : { workerRows }),
    ...extra,
  });
  telemetry.ingestFrame(frame);
  // Server rendering reads a zustand store's initial state: give it the frame's.
  return renderStatic(<LiveView />, {
    state: { policy, config: frame.config, workerCount: 4 },
    telemetry,
  });
}

describe('the Live view', () => {
  it('gives its main panels stable test ids', () => {
    const html = render('mlfq');
    for (const id of [
      'gantt',
      'share',
      'depth',
      'selections',
      'latency',
      'wait',
      'counters',
      'alarms',
    ]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
  });

  it.each([
    ['mlfq', 'level', 'Charged time per level'],
    ['priority', 'priority band', 'Charged time per priority band'],
    ['fair', 'task', 'Service share per task'],
    ['fifo', 'queue', 'Queue age'],
  ] as const)('under %s the share panel counts in its own unit (%s)', (policy, unit, title) => {
    const html = render(policy);
    expect(html).toContain(`data-unit="${unit}"`);
    expect(html).toContain(title);
  });
});

describe('the priority panel', () => {
  const bands = ['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100'];
  it('shows the aging boosts each band got within the share window', () => {
    const html = render(
      'priority',
      undefined,
      [{ timeMs: 0, labels: bands, chargedMs: [0, 0, 0, 0, 0], agingBoosts: [0, 0, 1, 2, 5] }],
      { labels: bands, chargedMs: [500, 0, 0, 0, 0], agingBoosts: [0, 0, 1, 6, 17] },
    );
    expect(html).toContain('data-testid="aging-boosts"');
    const cells = [...html.matchAll(/data-band="([^"]+)" data-boosts="(\d*)"/g)];
    expect(cells.map((m) => [m[1], m[2]])).toEqual([
      ['p0-19', '0'],
      ['p20-39', '0'],
      ['p40-59', '0'],
      ['p60-79', '4'],
      ['p80-100', '12'],
    ]);
    expect(html).not.toContain('aging boosts: not reported');
  });

  it('says so when the host does not count boosts', () => {
    const html = render('priority', undefined, [], { labels: bands });
    expect(html).not.toContain('data-testid="aging-boosts"');
    expect(html).toContain('aging boosts: not reported by this host');
  });
});

describe('the fair panel', () => {
  const groups = (unit: FairGroups['unit'], kind: FairGroupRow['kind'], labels: string[]) => ({
    unit,
    count: labels.length,
    totalNanos: 400e6,
    groups: labels.map((label, i) => ({
      key: `${kind}-${i}`,
      kind,
      label,
      cls: i === 0 ? 'scan' : 'report',
      serviceNanos: i === 0 ? 300e6 : 100e6,
    })),
    others: { groups: 0, serviceNanos: 0 },
    byClass: [
      { cls: 'scan', jobs: 1, serviceNanos: 300e6 },
      { cls: 'report', jobs: 1, serviceNanos: 100e6 },
    ],
    jain: 0.8,
  });

  it.each([
    ['task', 'task', ['#1.0 scan', '#2.0 report']],
    ['query', 'job', ['#1 scan', '#2 report']],
    ['query', 'tenant', ['acme', 'globex']],
    ['split', 'split', ['split 4 · #1 scan', 'split 9 · #2 report']],
  ] as const)('under %s fairness shows the share of each %s', (fairness, unit, labels) => {
    const fairGroups = groups(unit, unit, [...labels]);
    const html = render('fair', undefined, [], {
      config: { policy: 'fair', fairness },
      fairGroups,
    });
    expect(html).toContain(`data-unit="${unit}"`);
    expect(html).toContain(`Service share per ${unit}`);
    expect(html).toContain(`data-shares="${labels[0]}=0.7500;${labels[1]}=0.2500"`);
    expect(html).toContain('data-testid="fair-classes" data-shares="scan=0.7500;report=0.2500"');
    expect(html).not.toContain('per-job view');
  });
});

describe('the workers panel', () => {
  const row = (id: number, node: string, jobId: number | null = null): WorkerRow => ({
    id,
    state: jobId === null ? 'idle' : 'running',
    splitId: jobId,
    jobId,
    sinceNanos: jobId === null ? null : 400e6,
    node,
  });

  it('lists the workers node by node on the cluster backend', () => {
    const html = render('mlfq', [row(0, 'b', 7), row(1, 'a'), row(2, 'b'), row(3, 'a')]);
    expect(html).toContain('data-testid="workers"');
    const nodes = [...html.matchAll(/data-testid="node-group" data-node="([^"]*)"/g)];
    expect(nodes.map((m) => m[1])).toEqual(['a', 'b']);
    const ids = [...html.matchAll(/data-testid="worker-row" data-worker="(\d+)"/g)];
    expect(ids.map((m) => Number(m[1]))).toEqual([1, 3, 0, 2]);
    expect(html).toContain('b · 2 workers · 1 running');
    // Worker 0's quantum began at 400 ms of a 1 s frame.
    expect(html).toContain('600 ms');
  });

  it('is absent when no worker carries a node (threads, sim)', () => {
    expect(render('mlfq')).not.toContain('data-testid="workers"');
  });
});

describe('the Live view: tenants', () => {
  const tenant = (name: string, o: Partial<TenantRow> = {}): TenantRow => ({
    name,
    scheduledNanos: 0,
    liveJobs: 0,
    rejectedJobs: 0,
    weight: 1,
    ...o,
  });

  it('lists each tenant with its live jobs, scheduled time, rejections and weight', () => {
    const html = render('mlfq', undefined, [], {
      config: { policy: 'mlfq', maxLivePerTenant: 3 },
      tenants: [
        tenant('acme', { liveJobs: 3, rejectedJobs: 12, scheduledNanos: 2_500_000_000 }),
        tenant('globex', { liveJobs: 1, scheduledNanos: 40_000_000, weight: 2 }),
      ],
      tenantsMore: 5,
    });
    expect(html).toContain('7 tenants · 5 more not shown · at most 3 live jobs each');
    expect(html).toMatch(/data-tenant="acme" data-live="3" data-rejected="12"/);
    expect(html).toMatch(
      /data-tenant="globex" data-live="1" data-rejected="0"[^>]*data-weight="2"/,
    );
    // Rejections are marked: a tenant at its bound is what the operator looks for.
    expect(html).toMatch(/class="num warn">12</);
    // Each name searches the job table for that tenant's jobs.
    expect(html).toMatch(/title="search the jobs for tenant:acme"[^>]*>acme</);
  });

  it('a name no search term can hold (a space in it) is plain text, not a search', () => {
    const html = render('mlfq', undefined, [], { tenants: [tenant('big corp')] });
    expect(html).toContain('big corp');
    expect(html).not.toContain('data-testid="tenant-jobs"');
  });

  it('has no tenants panel while the engine holds no tenant', () => {
    expect(render('mlfq')).not.toContain('data-testid="tenants"');
    expect(render('mlfq', undefined, [], { tenants: [] })).not.toContain('data-testid="tenants"');
  });
});
