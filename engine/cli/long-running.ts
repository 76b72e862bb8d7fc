/** `schedlab serve` (browser mode) and `schedlab bench`: commands that run until stopped. */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SchedLabError } from '../../shared/errors.ts';
import { isPreset, PRESET_NAMES } from '../core/workload/presets/index.ts';
import { allowedDirs } from '../host/report/user-modules.ts';
import type { CliIo } from './io.ts';
import { UsageError } from './usage-error.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      preset: { type: 'string' },
      'no-build': { type: 'boolean' },
      modules: { type: 'string', multiple: true },
    },
  });
  const modules = allowedDirs(values.modules ?? []);
  if (values.preset !== undefined && !isPreset(values.preset))
    throw new SchedLabError(
      'UNKNOWN_PRESET',
      `--preset ${values.preset}: no such preset (${PRESET_NAMES.join(', ')})`,
      'preset',
    );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port ${values.port}: must be an integer in 0..65535`);
  const { serveBrowserMode } = await import('../host/server/browser-mode.ts');
  const mode = await serveBrowserMode({
    root,
    port,
    build: values['no-build'] !== true,
    ...(values.preset === undefined ? {} : { preset: values.preset }),
    modules,
    log: (line) => io.err(`${line}\n`),
  });
  io.out(`SchedLab browser mode: ${mode.url}\n(Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await mode.close();
  return 0;
}

export async function benchCommand(suites: string[]): Promise<number> {
  // bench/index.ts reads the suites to run from argv, like `npm run bench -- <suite>`, and
  // refuses an unknown name (INVALID_ARGUMENT, listing the suites) before running any.
  process.argv = [process.argv[0] ?? 'node', 'bench/index.ts', ...suites];
  await import('../../bench/index.ts');
  return 0;
}
