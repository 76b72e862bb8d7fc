/**
 * The live session both app hosts run (Electron main and browser mode): an engine `Session` on
 * the real `threads` backend (or, with `backend: 'sim'`, on the seeded simulator paced at `speed`
 * × real time), frames at 10 Hz on the wall clock, and the default preset started at once, so the
 * first thing a user sees is a live scheduler. A sim session with a seed shows exactly what
 * `schedlab run <preset> --seed N` reports (its first round of the preset is that run).
 */
import { availableParallelism } from 'node:os';
import type { EngineConfig, EngineConfigPatch } from '../../../shared/config.ts';
import type { CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { DEFAULT_SEED, Session, type WorkloadHandler } from '../session/index.ts';
import type { HostSession } from './host-session.ts';
import { liveWorkloads } from './live-workloads.ts';

export const DEFAULT_PRESET = 'interactive-vs-scan';

export interface LiveSessionOptions {
  /** Applied over the engine defaults (e.g. the last configuration the user had). */
  config?: EngineConfigPatch;
  /** Preset started at launch; null starts nothing. */
  preset?: string | null;
  /** Turns presets and workload documents into jobs (default: live, looping presets). */
  workloads?: WorkloadHandler;
  frameHz?: number;
  log?: (line: string) => void;
  /** `threads` (the default: real workers) or `sim` (the simulator, reproducible). */
  backend?: 'threads' | 'sim';
  /** Sim only: virtual time per real time (default 1), or `max`. */
  speed?: number | 'max';
  /**
   * The seed of the backend and of the presets' jobs (as `schedlab run --seed`); unset, the
   * backend uses `DEFAULT_SEED` and a preset its own seed.
   */
  seed?: number;
  /** Runs the session on this backend (a cluster's) instead of local threads or the sim. */
  external?: Backend;
  /** What presets are fitted to (default: this machine's cores). */
  cores?: number;
  /** Directories user modules may load from (real paths); none by default. */
  modules?: readonly string[];
}

export interface LiveSession extends HostSession<CommandResult, Snapshot, Frame> {
  readonly session: Session;
  /** The engine's configuration now (what a host remembers on quit). */
  config(): EngineConfig;
  /** Stops frames and the executor, and terminates the worker threads. */
  close(): Promise<void>;
}

export async function startLiveSession(options: LiveSessionOptions = {}): Promise<LiveSession> {
  const log = options.log ?? (() => {});
  const config = options.config ?? {};
  const sim = options.backend === 'sim';
  // The Session's own seed: injected failures (failProbability) replay run to run.
  const seed = options.seed ?? DEFAULT_SEED;
  const workers = config.workers === undefined ? {} : { workers: config.workers };
  const backend: Backend =
    options.external ??
    (sim
      ? new SimBackend({ workers: config.workers ?? 4, seed })
      : new ThreadsBackend({ ...workers, seed }));
  const own =
    options.workloads === undefined
      ? liveWorkloads({
          loop: true,
          // The sim has no cores to fit: it runs a preset's workers as written, like `run`.
          ...(sim ? {} : { cores: options.cores ?? availableParallelism() }),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          log,
          ...(options.modules === undefined ? {} : { modules: options.modules }),
        })
      : null;
  const workloads: WorkloadHandler = own ?? options.workloads ?? {};
  const session = new Session({
    backend,
    config,
    frameHz: options.frameHz ?? 10,
    workloads,
    seed,
    ...(options.speed === undefined ? {} : { speed: options.speed }),
  });
  session.start();

  const preset = options.preset === undefined ? DEFAULT_PRESET : options.preset;
  if (preset !== null) {
    const result = await session.handleCommand({ type: 'runPreset', preset });
    if (result.ok) log(`running preset ${preset}`);
    else log(`preset ${preset} did not start: ${result.error.message}`);
    // The preset brings its own knobs; the user's remembered ones win over them.
    if (Object.keys(config).length > 0) session.executor.configure(config);
  }

  let closed: Promise<void> | null = null;
  return {
    session,
    handleCommand: (command) => session.handleCommand(command),
    snapshot: () => session.snapshot(),
    onFrame: (listener) => session.onFrame(listener),
    spanCount: (frame) => session.spanCount(frame),
    config: () => session.executor.config,
    close: () => {
      own?.stop();
      return (closed ??= session.close());
    },
  };
}
