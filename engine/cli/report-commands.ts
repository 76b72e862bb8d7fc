/**
 * The `schedlab` subcommands. Each parses its own flags with `node:util` `parseArgs` (strict:
 * an unknown flag is a usage error) and returns an exit code.
 */
import { basename, dirname } from 'node:path';
import type { EngineConfigPatch } from '../../shared/config.ts';
import type { GraphPolicy } from '../../shared/graph.ts';
import type { Workload } from '../../shared/workload.ts';
import { MAX_COMPARE_CONFIGS, MAX_WORKLOAD_MS } from '../../shared/limits.ts';
import { isPreset, PRESET_NAMES, PRESETS } from '../core/workload/presets/index.ts';
import {
  compareConfigs,
  compareJson,
  formatCompare,
  type CompareConfig,
} from '../host/report/compare.ts';
import { formatReport, reportJson } from '../host/report/format.ts';
import { withGraphOverrides } from '../host/report/run-graph.ts';
import { runWorkload } from '../host/report/run-workload.ts';
import { allowedDirs, checkModules } from '../host/report/user-modules.ts';
import {
  graphPolicyOf,
  oneWorkload,
  parseCommandArgs,
  pipelineFlag,
  policyOf,
  seedOf,
} from './args.ts';
import type { CliIo } from './io.ts';
import { loadWorkload, readJsonFile } from './load.ts';
import { OutputFile } from './output-file.ts';
import { progressLine, type Progress } from './progress.ts';
import { parseDuration, parseSettings, type Settings } from './settings.ts';
import {
  DEFAULT_TIME_LIMIT,
  DEFAULT_TIME_LIMIT_MS,
  MAX_TIME_LIMIT,
  TIME_LIMIT_ADVICE,
  pastTimeLimit,
  redisAwayAdvice,
  withTimeLimit,
} from './time-limit.ts';
import type { ClusterBackend } from '../runtime/cluster/cluster-backend.ts';
import { UsageError } from './usage-error.ts';

const common = {
  set: { type: 'string', multiple: true },
  seed: { type: 'string' },
  duration: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * `--policy` for a run: a split-queue policy goes into the engine config; a graph workload is
 * ordered by its documents' ready-queue policy instead, which the engine config never reaches.
 */
function runPolicy(
  workload: Workload,
  policy: string | undefined,
): { config: EngineConfigPatch; graphPolicy?: GraphPolicy } {
  if (policy === undefined) return { config: {} };
  if (workload.graph !== undefined) return { config: {}, graphPolicy: graphPolicyOf(policy) };
  return { config: { policy: policyOf(policy) } };
}

/** A workload's longest duration, said as a flag's value (it named `durationMs` in ms). */
const MAX_DURATION = {
  ms: MAX_WORKLOAD_MS,
  text: "2400h (100 days, a workload's longest)",
} as const;

const durationOf = (text: string | undefined) =>
  text === undefined ? undefined : parseDuration(text, '--duration', MAX_DURATION);

/**
 * `--duration` is also the workload's own end, so an open-ended arrival (no `count`) that the
 * document could not run without an end validates once the flag gives one.
 */
function withDuration(edits: Settings['workload'], durationMs: number | undefined) {
  return durationMs === undefined ? edits : [...edits, { path: ['durationMs'], value: durationMs }];
}

/** In place on a terminal (unless the report is JSON); plain lines elsewhere when asked. */
function progressFor(io: CliIo, asked: boolean, json: boolean): Progress | null {
  if (io.errIsTty) return asked || !json ? progressLine(io, 'tty') : null;
  return asked ? progressLine(io, 'lines') : null;
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    ...common,
    backend: { type: 'string' },
    redis: { type: 'string' },
    pipeline: { type: 'string' },
    policy: { type: 'string' },
    trace: { type: 'string' },
    progress: { type: 'boolean' },
    modules: { type: 'string', multiple: true },
    'time-limit': { type: 'string' },
  });
  // The time limit counts from here: loading and compiling a large workload take seconds.
  const now = io.now ?? (() => performance.now());
  const started = now();
  const ref = oneWorkload(positionals, 'run');
  const backend = values.backend ?? 'sim';
  if (backend !== 'sim' && backend !== 'threads' && backend !== 'cluster')
    throw new UsageError(`--backend ${backend}: must be sim, threads or cluster`, '--backend');
  if ((backend === 'cluster') !== (values.redis !== undefined))
    throw new UsageError(
      '--redis URL goes with --backend cluster (and --backend cluster needs it)',
      '--redis',
    );
  const pipeline = pipelineFlag(values.pipeline, backend === 'cluster', '--backend cluster');
  const seed = seedOf(values.seed);
  const trace = values.trace === undefined ? undefined : OutputFile.check(values.trace, '--trace');
  // The trace's FIFO, if it is one, is held open until the end.
  try {
    const settings = parseSettings(values.set ?? []);
    const durationMs = durationOf(values.duration);
    // User modules load from --modules directories and the workload file's own directory.
    const dirs = allowedDirs([...(values.modules ?? []), ...(isPreset(ref) ? [] : [dirname(ref)])]);
    const loaded = await checkModules(
      loadWorkload(ref, withDuration(settings.workload, durationMs)),
      backend,
      dirs,
    );
    const policy = runPolicy(loaded, values.policy);
    const workload = withGraphOverrides(loaded, {
      ...(seed === undefined ? {} : { seed }),
      ...(policy.graphPolicy === undefined ? {} : { policy: policy.graphPolicy }),
    });
    const progress = progressFor(io, values.progress === true, values.json === true);
    // A run with no end of its own (no duration: it ends when its jobs do) is bounded in wall time.
    const limitMs =
      values['time-limit'] !== undefined
        ? parseDuration(values['time-limit'], '--time-limit', MAX_TIME_LIMIT)
        : (durationMs ?? loaded.durationMs) === undefined
          ? DEFAULT_TIME_LIMIT_MS
          : null;
    // A graph workload refuses a duration, and one given already did not help.
    const advice =
      loaded.graph !== undefined || (durationMs ?? loaded.durationMs) !== undefined
        ? TIME_LIMIT_ADVICE.limit
        : TIME_LIMIT_ADVICE.durationOrLimit;
    // A cluster run's limit passed while Redis was away says so (`redisAwayAdvice`).
    let cluster: ClusterBackend | null = null;
    // The command's start in wall time, as the outage's own times (the limit counts from it).
    const startedAt = Date.now() - (now() - started);
    const adviceNow = () =>
      cluster === null
        ? advice
        : redisAwayAdvice(
            cluster.target.display,
            cluster.redisAway(),
            cluster.writesRefused(),
            startedAt,
            advice,
          );
    const limit =
      limitMs === null
        ? null
        : {
            deadline: started + limitMs,
            label: values['time-limit'] ?? DEFAULT_TIME_LIMIT,
            advice: adviceNow,
            now,
          };
    const pastLimit = limit === null ? undefined : pastTimeLimit(limit);
    const late = pastLimit?.();
    if (late) throw late;
    let result;
    try {
      result = await withTimeLimit(
        limit,
        runWorkload(workload, {
          ...(pastLimit === undefined ? {} : { pastLimit }),
          backend,
          ...(values.redis === undefined
            ? {}
            : { redis: values.redis, log: (l: string) => io.err(`${l}\n`) }),
          ...(pipeline === undefined ? {} : { pipeline }),
          onClusterBackend: (b) => (cluster = b),
          config: { ...settings.config, ...policy.config },
          ...(seed === undefined ? {} : { seed }),
          ...(durationMs === undefined ? {} : { durationMs }),
          trace: trace !== undefined,
          ...(progress ? { onProgress: (p) => progress.update(p) } : {}),
        }),
      );
    } finally {
      progress?.clear();
    }
    // The report first: a trace that cannot be written (a full disk) must not cost the run's results.
    io.out(
      values.json === true
        ? `${JSON.stringify(reportJson(result.report), null, 2)}\n`
        : `${formatReport(result.report, result.wallMs)}\n`,
    );
    if (trace !== undefined && result.trace !== null) {
      trace.write(JSON.stringify(result.trace), '; the report is above');
      const dropped = result.report.counters.spansDropped;
      const lost = dropped > 0 ? `; ${dropped} older quanta are not in it (spansDropped)` : '';
      io.err(
        `trace: ${result.trace.traceEvents.length} events written to ${trace.path}${lost} (open in https://ui.perfetto.dev)\n`,
      );
    }
    return 0;
  } finally {
    trace?.close();
  }
}

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    ...common,
    policy: { type: 'string', multiple: true },
    config: { type: 'string', multiple: true },
  });
  const ref = oneWorkload(positionals, 'compare');
  const asked = (values.policy?.length ?? 0) + (values.config?.length ?? 0);
  if (asked > MAX_COMPARE_CONFIGS)
    throw new UsageError(
      `compare takes at most ${MAX_COMPARE_CONFIGS} configs (--policy and --config together), got ${asked}`,
      '--policy',
    );
  const seed = seedOf(values.seed);
  const settings = parseSettings(values.set ?? []);
  const durationMs = durationOf(values.duration);
  // compare runs on the simulator, where a user module cannot run: refused up front.
  const workload = await checkModules(
    loadWorkload(ref, withDuration(settings.workload, durationMs)),
    'sim',
    [],
  );
  const configs: CompareConfig[] = [
    ...(values.policy ?? []).map((p) =>
      workload.graph === undefined
        ? { label: p, config: { policy: policyOf(p) } }
        : { label: p, config: {}, graphPolicy: graphPolicyOf(p) },
    ),
    ...(values.config ?? []).map((file) => ({
      label: basename(file, '.json'),
      config: readJsonFile(file, '--config') as CompareConfig['config'],
    })),
  ];
  if (configs.length < 2)
    throw new UsageError(
      'compare needs at least two configs: --policy A --policy B … or --config a.json --config b.json …',
      '--policy',
    );
  const result = await compareConfigs(workload, configs, {
    base: settings.config,
    ...(seed === undefined ? {} : { seed }),
    ...(durationMs === undefined ? {} : { durationMs }),
  });
  io.out(
    values.json === true
      ? `${JSON.stringify(compareJson(result), null, 2)}\n`
      : `${formatCompare(result)}\n`,
  );
  return 0;
}

export function presetsCommand(argv: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  if (positionals.length > 0)
    throw new UsageError(`presets takes no arguments, got ${positionals[0]!}`);
  const list = PRESET_NAMES.map((name) => ({
    name,
    description: PRESETS[name]?.description ?? '',
  }));
  if (values.json === true) io.out(`${JSON.stringify(list, null, 2)}\n`);
  else io.out(`${list.map((p) => `${p.name.padEnd(30)} ${p.description}`).join('\n')}\n`);
  return 0;
}
