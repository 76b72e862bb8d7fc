/** `schedlab serve` (browser mode) and `schedlab bench`: commands that run until stopped. */
import { fileURLToPath } from 'node:url';
import { SchedLabError } from '../../shared/errors.ts';
import { MAX_PORT } from '../../shared/limits.ts';
import { isPreset, PRESET_NAMES } from '../core/workload/presets/index.ts';
import { allowedDirs } from '../host/report/user-modules.ts';
import { parseRedisUrl } from '../runtime/cluster/redis-url.ts';
import { integerFlag, parseCommandArgs, pipelineFlag, seedOf } from './args.ts';
import type { CliIo } from './io.ts';
import { boundedLines, driveFromLines } from './serve-commands.ts';
import { UsageError } from './usage-error.ts';

import { COMPILED } from '../runtime/compiled.ts';

/** The repository root: two folders up from engine/cli, four from dist/lib/engine/cli. */
const root = fileURLToPath(new URL(COMPILED ? '../../../..' : '../..', import.meta.url));

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  // As every command's flags: a negative number after a flag is its value (`--port -5` is then
  // refused naming --port, not as an "ambiguous" argument).
  const { values, positionals } = parseCommandArgs(argv, {
    port: { type: 'string' },
    preset: { type: 'string' },
    'no-build': { type: 'boolean' },
    backend: { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    'keep-token': { type: 'boolean' },
    redis: { type: 'string' },
    pipeline: { type: 'string' },
    modules: { type: 'string', multiple: true },
  });
  if (positionals.length > 0) throw new UsageError(`serve takes no argument '${positionals[0]}'`);
  const backend = serveBackend(values.backend);
  // With another backend, --redis offers the cluster as a backend the app can switch to.
  if (backend === 'cluster' && values.redis === undefined)
    throw new UsageError('--backend cluster needs --redis URL', '--backend');
  // Checked now, as `run` and `worker` do: not first when a client switches to the cluster.
  if (values.redis !== undefined) parseRedisUrl(values.redis);
  // The cluster runs with --redis only (started on it, or switched to from the app's header).
  const pipeline = pipelineFlag(values.pipeline, values.redis !== undefined, '--redis URL');
  const modules = allowedDirs(values.modules ?? []);
  if (values.preset !== undefined && !isPreset(values.preset))
    throw new SchedLabError(
      'UNKNOWN_PRESET',
      `--preset ${values.preset}: no such preset (${PRESET_NAMES.join(', ')})`,
      'preset',
    );
  const port = values.port === undefined ? 0 : integerFlag(values.port, '--port', 0, MAX_PORT);
  const { serveBrowserMode } = await import('../host/server/browser-mode.ts');
  const { defaultTokenFile } = await import('../host/server/token-file.ts');
  const sim = backend === 'sim';
  if (!sim && (values.speed !== undefined || values.seed !== undefined))
    throw new UsageError('--speed and --seed need --backend sim', '--speed');
  const tokens = [values.token, values['token-file'], values['keep-token']].filter(
    (v) => v !== undefined,
  );
  if (tokens.length > 1)
    throw new UsageError('--token, --token-file and --keep-token: give at most one');
  const tokenFile = values['keep-token'] === true ? defaultTokenFile() : values['token-file'];
  const mode = await serveBrowserMode({
    root,
    port,
    build: values['no-build'] !== true,
    ...(values.preset === undefined ? {} : { preset: values.preset }),
    ...(sim ? { backend: 'sim' as const, speed: serveSpeed(values.speed) } : { backend }),
    ...(values.seed === undefined ? {} : { seed: seedOf(values.seed)! }),
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(tokenFile === undefined ? {} : { tokenFile }),
    ...(values.redis === undefined ? {} : { redis: values.redis }),
    ...(pipeline === undefined ? {} : { pipeline }),
    modules,
    log: (line) => io.err(`${line}\n`),
  });
  io.out(
    `SchedLab browser mode: ${mode.url}\n(Ctrl-C to stop; commands on stdin, one a line: cancelAll, resetStats, or JSON)\n`,
  );
  let stopping = false;
  void driveFromLines(
    boundedLines(process.stdin),
    (command) => mode.handleCommand(command),
    io.out,
  ).catch((e: unknown) => {
    // Stopping destroys stdin under the reader: that is no fault.
    if (!stopping) io.err(`schedlab: stdin: ${e instanceof Error ? e.message : String(e)}\n`);
  });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  stopping = true;
  process.stdin.destroy();
  await mode.close();
  return 0;
}

function serveBackend(value: string | undefined): 'threads' | 'sim' | 'cluster' {
  if (value === undefined || value === 'threads' || value === 'sim' || value === 'cluster')
    return value ?? 'threads';
  throw new UsageError(`--backend ${value}: must be threads, sim or cluster`, '--backend');
}

/** Virtual time per real time: a number in (0, 1e6] (as `setSpeed`), or `max`. */
function serveSpeed(value: string | undefined): number | 'max' {
  if (value === undefined) return 1;
  if (value === 'max') return 'max';
  // Decimal only, as every other flag: `Number()` took `0x10`, `1e3` and `''`.
  const speed = /^(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : NaN;
  if (!(speed > 0 && speed <= 1e6))
    throw new UsageError(`--speed ${value}: must be a number in (0, 1000000] or max`, '--speed');
  return speed;
}

export async function benchCommand(suites: string[]): Promise<number> {
  // bench/index.ts reads the suites to run from argv, like `npm run bench -- <suite>`, and
  // refuses an unknown name (INVALID_ARGUMENT, listing the suites) before running any.
  process.argv = [process.argv[0] ?? 'node', 'bench/index.ts', ...suites];
  try {
    await import('../../bench/index.ts');
  } catch (e) {
    // An installed copy ships no benchmarks: they measure against development packages
    // (Piscina, Tinypool, BullMQ, …) a service does not install.
    const missing = e as { code?: unknown; message?: unknown };
    if (missing.code === 'ERR_MODULE_NOT_FOUND' && String(missing.message).includes('/bench/'))
      throw new UsageError(
        'bench runs in a checkout of the SchedLab repository (npm ci, then npm run bench): an installed copy has no benchmarks or their baseline packages',
      );
    throw e;
  }
  return 0;
}
