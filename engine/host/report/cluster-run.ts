/**
 * A headless run's cluster backend (`schedlab run --backend cluster --redis URL`): connected,
 * with worker nodes up before time starts. The run uses `workers` workers when the caller set
 * them (waiting for the fleet to offer that many), else every worker on offer at the start.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import { ClusterBackend } from '../../runtime/cluster/cluster-backend.ts';

/** How long a run waits for Redis and for worker nodes before it gives up (ms). */
export const CLUSTER_WAIT_MS = 30_000;

export async function startClusterRun(
  redis: string | undefined,
  config: EngineConfig,
  explicitWorkers: number | undefined,
  seed: number,
  log: (line: string) => void,
): Promise<{ backend: ClusterBackend; config: EngineConfig }> {
  if (redis === undefined) {
    const { SchedLabError } = await import('../../../shared/errors.ts');
    throw new SchedLabError('INVALID_ARGUMENT', '--backend cluster needs --redis URL', 'redis');
  }
  const backend = new ClusterBackend({
    redis,
    seed,
    onAlarm: (a) => log(`cluster: ${a.message}`),
  });
  try {
    await backend.connect(CLUSTER_WAIT_MS, (line) => log(`cluster: ${line}`));
    const offered = await backend.waitForWorkers(explicitWorkers ?? 1, CLUSTER_WAIT_MS);
    const workers = explicitWorkers ?? Math.min(256, offered);
    backend.setWorkerCount(workers);
    return { backend, config: { ...config, workers } };
  } catch (e) {
    await backend.close();
    throw e;
  }
}
