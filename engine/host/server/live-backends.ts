/**
 * One engine `Session` of the live app on the backend it is asked for: real threads, the seeded
 * simulator paced at a speed, or the cluster's worker nodes through Redis (cluster-live.ts), with
 * the live presets (live-workloads.ts) and the preset to run started at once. live-session.ts
 * opens one at launch and another on each backend switch, which readies the backend first
 * (`prepareBackend`: the cluster's Redis connected and a node's workers on offer) so that a
 * backend that cannot start leaves the session running as it was.
 */
import { availableParallelism } from 'node:os';
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Alarm, BackendName } from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { DEFAULT_SEED, Session, type WorkloadHandler } from '../session/index.ts';
import { loadClusterModule } from '../../runtime/cluster/optional-packages.ts';
import type { ClusterLive } from './cluster-live.ts';
import { liveWorkloads, type LiveWorkloads } from './live-workloads.ts';

export interface BackendChoice {
  readonly backend: BackendName;
  /** Sim only: virtual time per real time (default 1), or `max`. */
  readonly speed?: number | 'max';
  /** The seed of the backend and of the presets' jobs (as `schedlab run --seed`). */
  readonly seed?: number;
}

export interface OpenOptions {
  readonly config: EngineConfigPatch;
  /** Started at once; null starts nothing. */
  readonly preset: string | null;
  readonly workloads?: WorkloadHandler;
  readonly frameHz: number;
  readonly log: (line: string) => void;
  /** Runs on this backend instead of making one (the choice's name is then only a label). */
  readonly external?: Backend;
  /** The Redis of the cluster backend (`cluster` is refused without it). */
  readonly redis?: string;
  /**
   * The cluster backend: keep one quantum queued behind each busy node worker's running one (the
   * executor's `pipeline`), default true; the other backends run without it, as `schedlab run`.
   */
  readonly pipeline?: boolean;
  /** What presets are fitted to on threads (default: this machine's cores). */
  readonly cores?: number;
  readonly modules?: readonly string[];
}

export interface OpenedSession {
  readonly session: Session;
  readonly name: BackendName;
  /** The live presets this session runs (null when the caller brought its own workloads). */
  readonly own: LiveWorkloads | null;
  /** Alarms of the backend that frames carry beside the engine's (the cluster's Redis). */
  readonly alarms?: () => Alarm[];
}

/** What a backend needs before its session starts, made ahead (nothing but for the cluster). */
export interface PreparedBackend {
  readonly cluster: ClusterLive | null;
  /** Lets it go when no session will run on it. */
  close(): Promise<void>;
}

/** How long a backend switch waits for the cluster's Redis to answer (ms). */
export const SWITCH_CONNECT_MS = 5000;

/**
 * Readies what `choice` needs before its session can start: for the cluster, Redis connected and
 * a node offering a worker (`connectMs`: the wait for Redis, default 30 s). Throws, coded
 * (`CLUSTER_UNAVAILABLE` naming the URL without its password), when it cannot be.
 */
export async function prepareBackend(
  choice: BackendChoice,
  options: OpenOptions,
  connectMs?: number,
): Promise<PreparedBackend> {
  if (options.external !== undefined || choice.backend !== 'cluster') {
    return { cluster: null, close: async () => {} };
  }
  if (options.redis === undefined) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      'backend: cluster needs the host started with a Redis URL (schedlab serve --redis URL)',
      'backend',
    );
  }
  // Loaded only for the cluster: its packages are optional (optional-packages.ts).
  const { startClusterLive } = await loadClusterModule(() => import('./cluster-live.ts'));
  const cluster = await startClusterLive(
    options.redis,
    options.log,
    connectMs === undefined ? {} : { connectMs },
  );
  return { cluster, close: () => cluster.backend.close() };
}

/** A session on `choice`, on what `prepared` readied (`prepareBackend`; made here when absent). */
export async function openLiveSession(
  choice: BackendChoice,
  options: OpenOptions,
  prepared?: PreparedBackend,
): Promise<OpenedSession> {
  const ready = prepared ?? (await prepareBackend(choice, options));
  try {
    return await openOn(choice, options, ready.cluster);
  } catch (e) {
    await ready.close();
    throw e;
  }
}

async function openOn(
  choice: BackendChoice,
  options: OpenOptions,
  cluster: ClusterLive | null,
): Promise<OpenedSession> {
  const { config, log } = options;
  const sim = choice.backend === 'sim';
  // The Session's own seed: injected failures (failProbability) replay run to run.
  const seed = choice.seed ?? DEFAULT_SEED;
  const cores = cluster?.workers ?? options.cores;
  const workers = config.workers === undefined ? {} : { workers: config.workers };
  const backend: Backend =
    options.external ??
    cluster?.backend ??
    (sim
      ? new SimBackend({ workers: config.workers ?? 4, seed })
      : new ThreadsBackend({ ...workers, seed }));
  const own =
    options.workloads === undefined
      ? liveWorkloads({
          loop: true,
          // The sim has no cores to fit: it runs a preset's workers as written, like `run`.
          ...(sim ? {} : { cores: cores ?? availableParallelism() }),
          ...(choice.seed === undefined ? {} : { seed: choice.seed }),
          log,
          ...(options.modules === undefined ? {} : { modules: options.modules }),
        })
      : null;
  const session = new Session({
    backend,
    config,
    frameHz: options.frameHz,
    workloads: own ?? options.workloads ?? {},
    seed,
    ...(choice.speed === undefined ? {} : { speed: choice.speed }),
    ...(cluster !== null && options.pipeline !== false ? { executor: { pipeline: true } } : {}),
  });
  cluster?.follow(session);
  session.start();
  if (options.preset !== null) {
    const result = await session.handleCommand({ type: 'runPreset', preset: options.preset });
    if (result.ok) log(`running preset ${options.preset} on ${choice.backend}`);
    else log(`preset ${options.preset} did not start: ${result.error.message}`);
    // The preset brings its own knobs; the user's remembered ones win over them.
    if (Object.keys(config).length > 0) session.executor.configure(config);
  }
  return {
    session,
    name: choice.backend,
    own,
    ...(cluster === null ? {} : { alarms: cluster.alarms }),
  };
}
