/**
 * The human summary of a run: header, per-class outcomes and latency/wait percentiles, per-level
 * scheduled time, and for Trino's experiments the simulator's status lines and summary
 * (docs/design.md §9): completed tasks and splits per level, histograms of processed
 * and wait time by level and by spec (buckets 0 / 1 s / 10 s / 60 s / 300 s / 1 h / 1 d+), and
 * per spec its tasks, splits per task, required, scheduled and wait time.
 */
import { weightsText } from '../../../shared/job.ts';
import { BUCKET_LABELS } from './buckets.ts';
import type { ClassReport } from './class-stats.ts';
import { formatGraphSection } from './format-graph.ts';
import { formatExecutorSections } from './format-executor.ts';
import type { RunReport } from './report.ts';
import { fmtMs, pct, table } from './table.ts';
import type { TrinoSummaryJson } from './trino-stats.ts';

/** Status lines printed at most this many (evenly spaced; the last one always). */
const MAX_STATUS_LINES = 40;

/** A class's latency percentiles, or null when none of its jobs succeeded (nothing to measure). */
export function finishedLatency(c: ClassReport | undefined): ClassReport['latencyMs'] | null {
  return c === undefined || c.succeeded === 0 ? null : c.latencyMs;
}

/** ` · graph seed 3` after a report's seed, where its generators drew from their own. */
export function graphSeedsText(seeds: readonly number[] | undefined): string {
  if (seeds === undefined) return '';
  return ` · graph seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}`;
}

/**
 * A report as JSON (`run --json`, each run of `compare --json`): a class none of whose jobs
 * finished has no latency (null), and one none of whose splits was dispatched no wait (null),
 * not 0 that reads as the best of the columns — as the text report's `-`.
 */
export function reportJson(r: RunReport) {
  return {
    ...r,
    classes: Object.fromEntries(
      Object.entries(r.classes).map(([name, c]) => [
        name,
        { ...c, latencyMs: finishedLatency(c), waitMs: c.waitMs ?? null },
      ]),
    ),
  };
}

/**
 * What ordered the run: the engine's policy, or for a graph run its graphs' ready-queue policy
 * (a list runs under one) or work stealing, which has none. A graph run said `policy mlfq`,
 * the engine's default, which never applied.
 */
function policyOf(r: RunReport): string {
  const graph = r.dags?.[0];
  if (graph === undefined) return `policy ${r.config.policy}`;
  return graph.policy === undefined ? `executor ${graph.executor}` : `graph policy ${graph.policy}`;
}

export function formatReport(r: RunReport, wallMs?: number): string {
  const out: string[] = [];
  const wall = wallMs === undefined ? '' : ` · wall ${fmtMs(wallMs)}`;
  out.push(
    `${r.workload} · ${r.backend} · seed ${r.seed}${graphSeedsText(r.graphSeeds)} · ${policyOf(r)} · ${r.workers.count} workers${wall}`,
  );
  const stopped =
    r.stoppedAtMs === null ? '' : ` (stopped at ${fmtMs(r.stoppedAtMs)} with work live)`;
  out.push(
    `makespan ${fmtMs(r.makespanMs)}${stopped} · utilization ${pct(r.workers.utilization)} · Jain ${r.fairness.jain}${tenantJain(r)} · ${r.counters.quanta.toLocaleString('en-US')} quanta`,
  );
  const k = r.counters;
  const cpu =
    k.cpuMs === undefined || k.busyMs === undefined
      ? ''
      : `cpu ${fmtMs(k.cpuMs)} of ${fmtMs(k.busyMs)} busy`;
  const stuck = k.stuckSplitIds?.length
    ? ` · stuck at the end: split ${k.stuckSplitIds.join(', ')}${stuckTasks(k.stuckTaskIds)}`
    : '';
  const runaway =
    (k.runawayQuanta ?? 0) + (k.killedQuanta ?? 0) > 0 || stuck !== ''
      ? `runaway quanta ${k.runawayQuanta ?? 0} · killed ${k.killedQuanta ?? 0}${stuck}`
      : '';
  const extra = [cpu, runaway].filter((x) => x !== '').join(' · ');
  if (extra !== '') out.push(extra);
  out.push('');
  const queued = Object.values(r.classes).some((c) => c.queuedMs !== undefined);
  out.push(
    table(
      [
        'class',
        'prio',
        'jobs',
        'ok',
        'failed',
        'cancelled',
        'rejected',
        'live',
        'lat p50',
        'lat p95',
        'lat p99',
        'lat max',
        'wait p95',
        'wait max',
        // Trino's queued time (leaf splits in admission), when some class has leaf splits.
        ...(queued ? ['queued max'] : []),
        'scheduled',
      ],
      Object.entries(r.classes).map(([name, c]) => {
        const latency = finishedLatency(c);
        const lat = (ms: number | undefined) => (latency === null ? '-' : fmtMs(ms ?? 0));
        return [
          name,
          c.basePriority === null ? '-' : String(c.basePriority),
          String(c.jobs),
          String(c.succeeded),
          String(c.failed),
          String(c.cancelled),
          String(c.rejected),
          String(c.unfinished),
          lat(latency?.p50),
          lat(latency?.p95),
          lat(latency?.p99),
          lat(latency?.max),
          c.waitMs === undefined ? '-' : fmtMs(c.waitMs.p95),
          c.waitMs === undefined ? '-' : fmtMs(c.waitMs.max),
          ...(queued ? [c.queuedMs === undefined ? '-' : fmtMs(c.queuedMs.max)] : []),
          fmtMs(c.scheduledMs),
        ];
      }),
    ),
  );
  out.push(...failureLines(r));
  out.push('');
  // `charged` is what the level shares are taken from; `dispatched` is quanta by dispatch level.
  // PRIO's bands add the aging boosts their splits got (docs/metrics.md).
  const boosts = r.levels.some((l) => l.agingBoosts !== undefined);
  out.push(
    table(
      [
        'level',
        'charged',
        'share',
        'dispatched',
        'selections',
        ...(boosts ? ['aging boosts'] : []),
      ],
      r.levels.map((l) => [
        l.label,
        fmtMs(l.chargedMs ?? l.scheduledMs),
        pct(l.share ?? 0),
        fmtMs(l.scheduledMs),
        String(l.selections),
        ...(boosts ? [String(l.agingBoosts ?? 0)] : []),
      ]),
    ),
  );
  out.push(...formatGraphSection(r));
  out.push(...formatExecutorSections(r));
  if (r.trino) out.push('', formatTrino(r.trino));
  return out.join('\n');
}

/** Why jobs did not succeed, a line per error code: how many, and the first one's reason. */
function failureLines(r: RunReport): string[] {
  const rows = Object.entries(r.failures ?? {});
  if (rows.length === 0) return [];
  return [
    '',
    'not succeeded, by code (count · the first):',
    ...rows.map(([code, f]) => `  ${code} ${f.jobs.toLocaleString('en-US')} · ${f.first}`),
  ];
}

/** ` (task 3)` / ` (tasks 3, 4)`; nothing for reports from before task ids. */
function stuckTasks(ids: number[] | undefined): string {
  if (ids === undefined || ids.length === 0) return '';
  return ` (task${ids.length > 1 ? 's' : ''} ${ids.join(', ')})`;
}

/**
 * ` · Jain across N tenants X` when the run had two or more tenants, and the weights it was
 * measured against (` (weights initech ×2)`) when any is not 1.
 */
function tenantJain(r: RunReport): string {
  const n = r.fairness.tenants ?? 0;
  if (n <= 1) return '';
  const weights = weightsText(Object.entries(r.fairness.tenantWeights ?? {}));
  const by = weights === '' ? '' : ` (weights ${weights})`;
  return ` · Jain across ${n} tenants ${r.fairness.tenantJain ?? 1}${by}`;
}

function statusLines(t: TrinoSummaryJson): string[] {
  const stride = Math.max(1, Math.ceil(t.status.length / MAX_STATUS_LINES));
  const picked = t.status.filter((_, i) => i % stride === 0 || i === t.status.length - 1);
  return picked.map((s) => {
    const sp = s.splits;
    const lv = s.tasksPerLevel.join(' ');
    const sel = s.selectionsPerLevel.join(' ');
    return `${(s.elapsedMs / 1000).toFixed(0).padStart(5)} s  splits ${sp.total} (running ${sp.running}, leaf ${sp.leaf}, intermediate ${sp.intermediate}, blocked ${sp.blocked}, waiting ${sp.waiting}, completed ${sp.completed})  tasks ${s.tasks} [L0–L4: ${lv}]  selections [${sel}]`;
  });
}

function histogramTable(title: string, rows: [string, number[]][]): string {
  return table(
    [title, ...BUCKET_LABELS],
    rows.map(([name, counts]) => [name, ...counts.map(String)]),
  );
}

export function formatTrino(t: TrinoSummaryJson): string {
  const out: string[] = [];
  if (t.status.length > 0) {
    out.push(
      `status (every ${t.status.length > MAX_STATUS_LINES ? `${Math.ceil(t.status.length / MAX_STATUS_LINES)} s` : 'second'})`,
    );
    out.push(...statusLines(t), '');
  }
  const lastStatus = t.status.at(-1);
  const remainingSplits = lastStatus ? lastStatus.splits.total : 0;
  out.push(
    `completed tasks ${t.completedTasks}, remaining tasks ${t.remainingTasks}; completed splits ${t.completedSplits}, remaining splits ${remainingSplits}`,
  );
  out.push('');
  const levelRows = t.byLevel.map((g, l) => [`L${l}`, g] as const);
  out.push(
    table(
      ['level', 'tasks', 'splits'],
      levelRows.map(([name, g]) => [name, String(g.tasks), String(g.splits)]),
    ),
  );
  out.push('');
  out.push(
    histogramTable(
      'processed time by level',
      levelRows.map(([name, g]) => [name, g.processedHistogram]),
    ),
  );
  out.push('');
  out.push(
    histogramTable(
      'wait time by level',
      levelRows.map(([name, g]) => [name, g.waitHistogram]),
    ),
  );
  const specs = Object.entries(t.bySpec);
  out.push('');
  out.push(
    histogramTable(
      'processed time by spec',
      specs.map(([name, g]) => [name, g.processedHistogram]),
    ),
  );
  out.push('');
  out.push(
    histogramTable(
      'wait time by spec',
      specs.map(([name, g]) => [name, g.waitHistogram]),
    ),
  );
  out.push('');
  const per = (ms: number, n: number) => fmtMs(n > 0 ? ms / n : 0);
  out.push(
    table(
      ['spec', 'tasks', 'splits/task', 'required/task', 'scheduled/task', 'wait/task'],
      specs.map(([name, g]) => [
        name,
        String(g.tasks),
        String(g.splitsPerTask),
        per(g.requiredMs, g.tasks),
        per(g.scheduledMs, g.tasks),
        per(g.waitMs, g.tasks),
      ]),
    ),
  );
  return out.join('\n');
}
