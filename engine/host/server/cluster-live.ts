/**
 * The live app on the cluster backend (`schedlab serve --backend cluster --redis URL`): the
 * session starts once a node offers a worker, and its worker count follows the fleet — a node
 * joining or gone sets `workers` to the workers on offer (a `workers` marker on the timeline), so
 * a node added live is used at once.
 */
import { ClusterBackend } from '../../runtime/cluster/cluster-backend.ts';
import { DEFAULT_SEED, type Session } from '../session/index.ts';
import { CLUSTER_WAIT_MS } from '../report/cluster-run.ts';

export async function startClusterLive(
  redis: string,
  log: (line: string) => void,
): Promise<{ backend: ClusterBackend; workers: number; follow(session: Session): void }> {
  let session: Session | null = null;
  const backend = new ClusterBackend({
    redis,
    seed: DEFAULT_SEED,
    onAlarm: (alarm) => {
      log(`cluster: ${alarm.message}`);
      const workers = backend.workersOffered();
      if (session !== null && alarm.kind.startsWith('node-') && workers > 0) {
        session.executor.configure({ workers: Math.min(256, workers) });
      }
    },
  });
  try {
    await backend.connect(CLUSTER_WAIT_MS);
    log(`cluster: waiting for a schedlab worker on ${backend.target.display}`);
    const workers = Math.min(256, await backend.waitForWorkers(1, CLUSTER_WAIT_MS));
    backend.setWorkerCount(workers);
    return { backend, workers, follow: (s) => (session = s) };
  } catch (e) {
    await backend.close();
    throw e;
  }
}
