/**
 * The `compare` command (DESIGN.md §7 Compare view): one seeded workload, once per config, each
 * on a fresh simulator of its own — the live session's executor and clock are never touched.
 * A simulated run is synchronous, so the duration is bounded (`COMPARE_MAX_DURATION_MS`) and the
 * event loop gets a turn between runs: frames and other commands go on between columns.
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { SchedLabError, isSchedLabError } from '../../../shared/errors.ts';
import {
  COMPARE_DEFAULT_DURATION_MS,
  type CommandOf,
  type CompareReportRow,
  type CompareResultWire,
} from '../../../shared/protocol.ts';
import { schemaError, workloadSchema, type Workload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import type { RunReport } from '../report/report.ts';
import { resolveConfig } from '../report/resolve-config.ts';
import { runWorkload } from '../report/run-workload.ts';

type CompareCommand = CommandOf<'compare'>;

export async function runCompare(cmd: CompareCommand): Promise<CompareResultWire> {
  const workload = compareWorkload(cmd);
  const columns = cmd.configs.map(({ label, ...config }, i) => {
    // The full config (defaults ← workload ← column) is checked before any run starts, so a
    // cross-field error in the fourth column fails fast and names that column.
    try {
      resolveConfig(workload, 'sim', config as EngineConfigPatch);
    } catch (e) {
      if (!isSchedLabError(e)) throw e;
      const field = `configs.${i}${e.field === undefined ? '' : `.${e.field}`}`;
      throw new SchedLabError(e.code, `configs.${i}: ${e.message}`, field);
    }
    return { label: label ?? defaultLabel(config as EngineConfigPatch, i), config };
  });
  // The workload's own duration still applies when it is the shorter one.
  const durationMs = Math.min(
    cmd.durationMs ?? COMPARE_DEFAULT_DURATION_MS,
    workload.durationMs ?? Infinity,
  );
  const seed = cmd.seed ?? workload.seed;
  const reports: CompareReportRow[] = [];
  for (const column of columns) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { report } = await runWorkload(workload, {
      backend: 'sim',
      config: column.config as EngineConfigPatch,
      seed,
      durationMs,
    });
    reports.push(reportRow(column.label, report));
  }
  return { workload: workload.name, seed, durationMs, reports };
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
function defaultLabel(config: EngineConfigPatch, i: number): string {
  const parts = Object.entries(config)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) =>
      k === 'policy' ? String(v) : `${k} ${Array.isArray(v) ? v.join('/') : String(v)}`,
    );
  return parts.length === 0 ? `config ${i + 1}` : parts.join(' · ');
}

function reportRow(label: string, r: RunReport): CompareReportRow {
  const total = r.levels.reduce((n, l) => n + l.scheduledMs, 0);
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
          waitMs: c.waitMs,
        },
      ]),
    ),
    levelShares: r.levels.map((l) => ({
      level: l.level,
      label: l.label,
      share: total === 0 ? 0 : Math.round((l.scheduledMs / total) * 1e4) / 1e4,
    })),
    utilization: r.workers.utilization,
    jain: r.fairness.jain,
    quanta: r.counters.quanta,
  };
}
