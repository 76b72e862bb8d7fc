/**
 * The live app on the cluster backend (`schedlab serve --backend cluster --redis URL`): the
 * session starts once a node offers a worker, and its worker count follows the fleet — a node
 * joining or gone sets `workers` to the workers on offer (a `workers` marker on the timeline), so
 * a node added live is used at once.
 *
 * What the backend says about Redis (unreachable, stalled, refusing writes) goes to the log and,
 * while it holds, into every frame as a `cluster-redis` alarm (`alarms()`, which the backend
 * switch adds to frames, backend-switch.ts): frames alone showed a Redis outage as workers busy
 * and jobs overrunning their quanta.
 */
import type { Alarm } from '../../../shared/protocol.ts';
import { ClusterBackend } from '../../runtime/cluster/cluster-backend.ts';
import { DEFAULT_SEED, type Session } from '../session/index.ts';
import { CLUSTER_WAIT_MS } from '../report/cluster-run.ts';

export interface ClusterLive {
  readonly backend: ClusterBackend;
  readonly workers: number;
  follow(session: Session): void;
  /** Alarms about Redis that hold now (none while all is well). */
  alarms(): Alarm[];
}

export interface ClusterLiveOptions {
  /** How long to wait for Redis to answer (ms; default `CLUSTER_WAIT_MS`). */
  readonly connectMs?: number;
  /** How long to wait for a node to offer a worker (ms; default `CLUSTER_WAIT_MS`). */
  readonly workersMs?: number;
}

export async function startClusterLive(
  redis: string,
  log: (line: string) => void,
  options: ClusterLiveOptions = {},
): Promise<ClusterLive> {
  let session: Session | null = null;
  /** Redis unreachable or stalled: the alarm's text, until it is back. */
  let down: string | null = null;
  const backend = new ClusterBackend({
    redis,
    seed: DEFAULT_SEED,
    onAlarm: (alarm) => {
      log(`cluster: ${alarm.message}`);
      if (alarm.kind === 'redis-down') down = alarm.message;
      else if (alarm.kind === 'redis-up') down = null;
      const workers = backend.workersOffered();
      if (session !== null && alarm.kind.startsWith('node-') && workers > 0) {
        session.executor.configure({ workers: Math.min(256, workers) });
      }
    },
  });
  const alarms = (): Alarm[] => {
    const out: Alarm[] = [];
    if (down !== null) out.push({ kind: 'cluster-redis', message: down });
    const refused = backend.writesRefused();
    if (refused !== null) out.push({ kind: 'cluster-redis', message: refused });
    return out;
  };
  try {
    await backend.connect(options.connectMs ?? CLUSTER_WAIT_MS, (line) => log(`cluster: ${line}`));
    log(`cluster: waiting for a schedlab worker on ${backend.target.display}`);
    const workersMs = options.workersMs ?? CLUSTER_WAIT_MS;
    const workers = Math.min(256, await backend.waitForWorkers(1, workersMs));
    backend.setWorkerCount(workers);
    return { backend, workers, follow: (s) => (session = s), alarms };
  } catch (e) {
    await backend.close();
    throw e;
  }
}
