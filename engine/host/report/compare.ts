/**
 * Compare: the same seeded workload, once per config, on the simulator (docs/design.md §7 Compare
 * view's `compare` command, engine/host/session/compare-command.ts; `schedlab compare`). Runs are
 * sequential and deterministic, so a difference between columns is the configs' doing, nothing
 * else's.
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { GraphPolicy } from '../../../shared/graph.ts';
import type { BucketCounts } from '../../../shared/lib/histogram.ts';
import { levelRowName, type CompareSeries } from '../../../shared/protocol.ts';
import type { Workload } from '../../../shared/workload.ts';
import { finishedLatency, graphSeedsText, reportJson } from './format.ts';
import type { RunReport } from './report.ts';
import { checkConfigPatch } from './resolve-config.ts';
import { withGraphOverrides } from './run-graph.ts';
import { runWorkload } from './run-workload.ts';
import { fmtMs, pct, table } from './table.ts';

export interface CompareConfig {
  readonly label: string;
  readonly config: EngineConfigPatch;
  /** Graph workloads: the ready-queue policy every graph document runs under. */
  readonly graphPolicy?: GraphPolicy;
}

export interface CompareResult {
  workload: string;
  seed: number;
  runs: {
    label: string;
    config: EngineConfigPatch;
    graphPolicy?: GraphPolicy;
    report: RunReport;
    /** With `series`: the levels over the run and each class's latency histogram. */
    series?: CompareSeries;
    latencyBuckets?: Record<string, BucketCounts>;
  }[];
}

export interface CompareOptions {
  seed?: number;
  durationMs?: number;
  /** Applied under every config (e.g. `--set`). */
  base?: EngineConfigPatch;
  /** Keep each run's levels over time and latency histograms (the app's Compare view). */
  series?: boolean;
  /** Aborted: no further simulator step runs, and the compare throws `CANCELLED`. */
  signal?: AbortSignal;
}

export async function compareConfigs(
  workload: Workload,
  configs: readonly CompareConfig[],
  options: CompareOptions = {},
): Promise<CompareResult> {
  // Validate every config before running any, so a typo in the third fails fast.
  const checked = configs.map((c, i) => ({
    label: c.label,
    config: checkConfigPatch(c.config, [`configs[${i}]`]),
    graphPolicy: c.graphPolicy,
  }));
  const runs: CompareResult['runs'] = [];
  const signal = options.signal;
  // Asked between the simulator's steps, where a host's commands (a cancel) get their turns.
  const pastLimit = () =>
    signal?.aborted === true ? new SchedLabError('CANCELLED', 'compare: cancelled') : null;
  for (const c of checked) {
    // A host's frames and commands get a turn between runs too (and within each, `driveSim`).
    await new Promise<void>((resolve) => setImmediate(resolve));
    const stop = pastLimit();
    if (stop !== null) throw stop;
    // A graph document carries its own policy and generator seed; the column's replace them.
    const run = withGraphOverrides(workload, {
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(c.graphPolicy === undefined ? {} : { policy: c.graphPolicy }),
    });
    const { report, series, latencyBuckets } = await runWorkload(run, {
      backend: 'sim',
      config: { ...options.base, ...c.config },
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }),
      ...(options.series === true ? { series: true } : {}),
      ...(signal === undefined ? {} : { pastLimit }),
    });
    const graphPolicy = c.graphPolicy === undefined ? {} : { graphPolicy: c.graphPolicy };
    const extra = series === undefined ? {} : { series, latencyBuckets: latencyBuckets ?? {} };
    runs.push({ label: c.label, config: c.config, ...graphPolicy, report, ...extra });
  }
  return { workload: workload.name, seed: options.seed ?? workload.seed, runs };
}

const fmtOrDash = (ms: number | undefined) => (ms === undefined ? '-' : fmtMs(ms));

/** The result as JSON, each run's report as `reportJson` writes it. */
export function compareJson(result: CompareResult) {
  return {
    ...result,
    runs: result.runs.map((run) => ({ ...run, report: reportJson(run.report) })),
  };
}

/** Side by side: one column per config, one row per figure. */
export function formatCompare(result: CompareResult): string {
  const reports = result.runs.map((r) => r.report);
  const rows: string[][] = [];
  const row = (name: string, f: (r: RunReport) => string) => rows.push([name, ...reports.map(f)]);
  row('makespan', (r) => fmtMs(r.makespanMs));
  row('utilization', (r) => pct(r.workers.utilization));
  row('Jain fairness', (r) => String(r.fairness.jain));
  if (reports.some((r) => (r.fairness.tenants ?? 0) > 1)) {
    row('Jain across tenants', (r) => String(r.fairness.tenantJain ?? '-'));
  }
  row('quanta', (r) => String(r.counters.quanta));
  const classes = [...new Set(reports.flatMap((r) => Object.keys(r.classes)))];
  for (const cls of classes) {
    const latency = (r: RunReport) => finishedLatency(r.classes[cls]);
    row(`${cls} latency p50`, (r) => fmtOrDash(latency(r)?.p50));
    row(`${cls} latency p95`, (r) => fmtOrDash(latency(r)?.p95));
    row(`${cls} wait p95`, (r) => fmtOrDash(r.classes[cls]?.waitMs?.p95));
    row(`${cls} wait max`, (r) => fmtOrDash(r.classes[cls]?.waitMs?.max));
    row(
      `${cls} done/jobs`,
      (r) => `${r.classes[cls]?.succeeded ?? 0}/${r.classes[cls]?.jobs ?? 0}`,
    );
  }
  const levels = Math.max(...reports.map((r) => r.levels.length));
  for (let l = 0; l < levels; l++) {
    const name = levelRowName(
      reports.map((r) => r.levels[l]?.label),
      l,
    );
    row(`${name} charged share`, (r) => {
      const lv = r.levels[l];
      return lv?.share === undefined ? '-' : pct(lv.share);
    });
  }
  const seeds = graphSeedsText(result.runs[0]?.report.graphSeeds);
  return `${result.workload} · sim · seed ${result.seed}${seeds}\n\n${table(['', ...result.runs.map((r) => r.label)], rows)}`;
}
