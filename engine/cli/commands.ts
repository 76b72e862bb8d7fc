/**
 * The `schedlab` subcommands. Each parses its own flags with `node:util` `parseArgs` (strict:
 * an unknown flag is a usage error) and returns an exit code.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { POLICY_NAMES, type PolicyName } from '../../shared/config.ts';
import { PRESET_NAMES, PRESETS } from '../core/workload/presets/index.ts';
import { compareConfigs, formatCompare, type CompareConfig } from '../host/report/compare.ts';
import { formatReport } from '../host/report/format.ts';
import { runWorkload } from '../host/report/run-workload.ts';
import type { CliIo } from './io.ts';
import { loadWorkload, readJsonFile } from './load.ts';
import { progressLine } from './progress.ts';
import { parseDuration, parseSettings } from './settings.ts';
import { UsageError } from './usage-error.ts';

const common = {
  set: { type: 'string', multiple: true },
  seed: { type: 'string' },
  duration: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function policyOf(p: string): PolicyName {
  if (!(POLICY_NAMES as readonly string[]).includes(p)) {
    throw new UsageError(`--policy ${p}: must be one of ${POLICY_NAMES.join(', ')}`);
  }
  return p as PolicyName;
}

function seedOf(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`--seed ${s}: must be an integer >= 0`);
  return n;
}

function oneWorkload(positionals: string[], command: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `${command} takes one preset name or workload file (presets: ${PRESET_NAMES.join(', ')})`,
    );
  return positionals[0]!;
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...common,
      backend: { type: 'string' },
      policy: { type: 'string' },
      trace: { type: 'string' },
      progress: { type: 'boolean' },
    },
  });
  const ref = oneWorkload(positionals, 'run');
  const backend = values.backend ?? 'sim';
  if (backend !== 'sim' && backend !== 'threads')
    throw new UsageError(`--backend ${backend}: must be sim or threads`);
  const settings = parseSettings(values.set ?? []);
  const workload = loadWorkload(ref, settings.workload);
  const config = {
    ...settings.config,
    ...(values.policy === undefined ? {} : { policy: policyOf(values.policy) }),
  };
  const seed = seedOf(values.seed);
  const showProgress = values.progress === true || (io.errIsTty && values.json !== true);
  const progress = showProgress ? progressLine(io) : null;
  const result = await runWorkload(workload, {
    backend,
    config,
    ...(seed === undefined ? {} : { seed }),
    ...(values.duration === undefined ? {} : { durationMs: parseDuration(values.duration) }),
    trace: values.trace !== undefined,
    ...(progress ? { onProgress: (p) => progress.update(p) } : {}),
  });
  progress?.clear();
  if (values.trace !== undefined && result.trace !== null) {
    writeFileSync(values.trace, JSON.stringify(result.trace));
    io.err(
      `trace: ${result.trace.traceEvents.length} events written to ${values.trace} (open in https://ui.perfetto.dev)\n`,
    );
  }
  io.out(
    values.json === true
      ? `${JSON.stringify(result.report, null, 2)}\n`
      : `${formatReport(result.report, result.wallMs)}\n`,
  );
  return 0;
}

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...common,
      policy: { type: 'string', multiple: true },
      config: { type: 'string', multiple: true },
    },
  });
  const ref = oneWorkload(positionals, 'compare');
  const configs: CompareConfig[] = [
    ...(values.policy ?? []).map((p) => ({ label: p, config: { policy: policyOf(p) } })),
    ...(values.config ?? []).map((file) => ({
      label: basename(file, '.json'),
      config: readJsonFile(file, '--config') as CompareConfig['config'],
    })),
  ];
  if (configs.length < 2)
    throw new UsageError(
      'compare needs at least two configs: --policy A --policy B … or --config a.json --config b.json …',
    );
  const settings = parseSettings(values.set ?? []);
  const workload = loadWorkload(ref, settings.workload);
  const seed = seedOf(values.seed);
  const result = await compareConfigs(workload, configs, {
    base: settings.config,
    ...(seed === undefined ? {} : { seed }),
    ...(values.duration === undefined ? {} : { durationMs: parseDuration(values.duration) }),
  });
  io.out(
    values.json === true ? `${JSON.stringify(result, null, 2)}\n` : `${formatCompare(result)}\n`,
  );
  return 0;
}

export function presetsCommand(argv: string[], io: CliIo): number {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const list = PRESET_NAMES.map((name) => ({
    name,
    description: PRESETS[name]?.description ?? '',
  }));
  if (values.json === true) io.out(`${JSON.stringify(list, null, 2)}\n`);
  else io.out(`${list.map((p) => `${p.name.padEnd(30)} ${p.description}`).join('\n')}\n`);
  return 0;
}
