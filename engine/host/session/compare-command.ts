/**
 * The `compare` command (docs/design.md §7 Compare view): one seeded workload, once per config, each
 * on a fresh simulator of its own — the live session's executor and clock are never touched.
 * On a graph workload a column's `policy` is the graph ready-queue policy (`withGraphOverrides`,
 * as `schedlab compare` does). The duration is bounded (`COMPARE_MAX_DURATION_MS`), and a
 * simulated run gives the event loop a turn every few ms of wall time (run-workload.ts
 * `driveSim`): frames and other commands go on while a column runs — `cancelCompare` among them,
 * which stops it before its next step.
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { SchedLabError, isSchedLabError } from '../../../shared/errors.ts';
import { GRAPH_POLICIES, isGraphPolicy, type GraphPolicy } from '../../../shared/graph.ts';
import {
  COMPARE_DEFAULT_DURATION_MS,
  type CommandOf,
  type CompareConfigWire,
  type CompareReportRow,
  type CompareResultWire,
} from '../../../shared/protocol.ts';
import { fieldPath, prefixField, schemaError } from '../../../shared/schema-error.ts';
import { workloadSchema, type Workload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import type { RunReport } from '../report/report.ts';
import { resolveConfig } from '../report/resolve-config.ts';
import { compareConfigs, type CompareConfig } from '../report/compare.ts';

type CompareCommand = CommandOf<'compare'>;

/** `signal`: aborted by `cancelCompare`; the compare then throws `CANCELLED`. */
export async function runCompare(
  cmd: CompareCommand,
  signal?: AbortSignal,
): Promise<CompareResultWire> {
  const workload = compareWorkload(cmd);
  // The workload's own config is checked once, so its error is not blamed on a column.
  resolveConfig(workload, 'sim');
  const columns = cmd.configs.map((c, i) => column(workload, c, i));
  // The workload's own duration still applies when it is the shorter one.
  const durationMs = Math.min(
    cmd.durationMs ?? COMPARE_DEFAULT_DURATION_MS,
    workload.durationMs ?? Infinity,
  );
  const result = await compareConfigs(workload, columns, {
    ...(cmd.seed === undefined ? {} : { seed: cmd.seed }),
    durationMs,
    series: true,
    ...(signal === undefined ? {} : { signal }),
  });
  const reports: CompareReportRow[] = result.runs.map((r) => ({
    ...reportRow(r.label, r.report),
    ...(r.series === undefined ? {} : { series: r.series }),
    ...(r.latencyBuckets === undefined ? {} : { latencyBuckets: r.latencyBuckets }),
  }));
  return { workload: result.workload, seed: result.seed, durationMs, reports };
}

/**
 * One column, checked before any run starts: the full config (defaults ← workload ← column), so
 * a cross-field error in the fourth column fails fast and names that column. On a graph workload
 * `policy` is the graph's ready-queue policy, as `--policies` is for `schedlab compare`.
 */
function column(workload: Workload, c: CompareConfigWire, i: number): CompareConfig {
  const { label, policy, ...rest } = c;
  const graph = workload.graph !== undefined;
  if (graph && policy !== undefined && !isGraphPolicy(policy)) {
    const field = fieldPath(['configs', i, 'policy']);
    throw new SchedLabError(
      'INVALID_CONFIG',
      `${field} must be a graph policy on a graph workload: one of ${GRAPH_POLICIES.join(', ')}`,
      field,
    );
  }
  const config = (graph || policy === undefined ? rest : { ...rest, policy }) as EngineConfigPatch;
  try {
    resolveConfig(workload, 'sim', config);
  } catch (e) {
    throw isSchedLabError(e) ? prefixField(e, ['configs', i]) : e;
  }
  const name = label ?? defaultLabel(c, i);
  return graph && policy !== undefined
    ? { label: name, config, graphPolicy: policy as GraphPolicy }
    : { label: name, config };
}

function compareWorkload(cmd: CompareCommand): Workload {
  if (cmd.preset !== undefined && cmd.workload !== undefined) {
    throw new SchedLabError(
      'BAD_MESSAGE',
      'preset: give a preset or a workload, not both',
      'preset',
    );
  }
  if (cmd.preset !== undefined) return loadPreset(cmd.preset);
  if (cmd.workload === undefined) {
    throw new SchedLabError(
      'BAD_MESSAGE',
      'preset: a compare needs a preset or a workload',
      'preset',
    );
  }
  const parsed = workloadSchema.safeParse(cmd.workload);
  if (!parsed.success) throw schemaError(parsed.error, 'INVALID_WORKLOAD', ['workload']);
  return parsed.data;
}

/** `mlfq`, `fifo · m 2` …: the keys a column sets, so two columns of one policy still differ. */
function defaultLabel(config: CompareConfigWire, i: number): string {
  const parts = Object.entries(config)
    .filter(([k, v]) => v !== undefined && k !== 'label')
    .map(([k, v]) =>
      k === 'policy' ? String(v) : `${k} ${Array.isArray(v) ? v.join('/') : String(v)}`,
    );
  return parts.length === 0 ? `config ${i + 1}` : parts.join(' · ');
}

function reportRow(label: string, r: RunReport): CompareReportRow {
  return {
    label,
    config: r.config,
    makespanMs: r.makespanMs,
    stoppedAtMs: r.stoppedAtMs,
    classes: Object.fromEntries(
      Object.entries(r.classes).map(([name, c]) => [
        name,
        {
          jobs: c.jobs,
          succeeded: c.succeeded,
          unfinished: c.unfinished,
          latencyMs: c.latencyMs,
          ...(c.waitMs === undefined ? {} : { waitMs: c.waitMs }),
        },
      ]),
    ),
    levelShares: r.levels.map((l) => ({
      level: l.level,
      label: l.label,
      share: Math.round((l.share ?? 0) * 1e4) / 1e4,
    })),
    utilization: r.workers.utilization,
    jain: r.fairness.jain,
    quanta: r.counters.quanta,
  };
}
