/**
 * `schedlab worker --redis URL [--threads N] [--name NAME] [--modules DIR]…`: a worker node of
 * the cluster backend (engine/runtime/cluster/worker-node.ts). It offers N workers (default: one per
 * core), runs user modules only from the `--modules` directories (none: built-in kernels only),
 * runs quanta until stopped; Ctrl-C / SIGTERM lets what runs finish and deregisters it. It may
 * join and leave at any time: the coordinator uses it as soon as it beats and stops when it is
 * gone.
 */
import { availableParallelism } from 'node:os';
import type { CliIo } from './io.ts';
import { integerFlag, parseCommandArgs } from './args.ts';
import { UsageError } from './usage-error.ts';
import { loadClusterModule } from '../runtime/cluster/optional-packages.ts';

export async function workerCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    redis: { type: 'string' },
    threads: { type: 'string' },
    name: { type: 'string' },
    namespace: { type: 'string' },
    modules: { type: 'string', multiple: true },
  });
  if (positionals.length > 0)
    throw new UsageError(`worker takes no arguments, got ${positionals[0]}`);
  if (values.redis === undefined)
    throw new UsageError(
      'worker needs --redis URL (redis://127.0.0.1:6379, or redis://:password@host:port)',
    );
  const threads =
    values.threads === undefined
      ? availableParallelism()
      : integerFlag(values.threads, '--threads', 1, 256);
  const { WorkerNode } = await loadClusterModule(() => import('../runtime/cluster/worker-node.ts'));
  const node = await WorkerNode.start({
    redis: values.redis,
    threads,
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.namespace === undefined ? {} : { namespace: values.namespace }),
    moduleDirs: values.modules ?? [],
    log: (line) => io.err(`${line}\n`),
  });
  io.out(
    `schedlab worker ${node.instance}: ${threads} worker(s), waiting for quanta (Ctrl-C to leave)\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await node.close();
  return 0;
}
