/**
 * The live session both app hosts run (Electron main and browser mode): an engine `Session` on
 * the real `threads` backend (or, with `backend: 'sim'`, on the seeded simulator paced at `speed`
 * × real time; with `cluster`, on worker nodes through `redis`), frames at 10 Hz on the wall
 * clock, and the default preset started at once, so the first thing a user sees is a live
 * scheduler. A sim session with a seed shows exactly what `schedlab run <preset> --seed N`
 * reports (its first round of the preset is that run).
 *
 * `setBackend` replaces the session with one on another backend (backend-switch.ts): frame
 * listeners follow the new one, and `onReset` tells the transports to send every client a fresh
 * snapshot, since the new session's clock and history start over.
 */
import type { EngineConfig, EngineConfigPatch } from '../../../shared/config.ts';
import type { BackendName, CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import type { Session, WorkloadHandler } from '../session/index.ts';
import { BackendSwitch } from './backend-switch.ts';
import type { HostSession } from './host-session.ts';
import { openLiveSession, type OpenOptions } from './live-backends.ts';

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
  /** `threads` (the default: real workers), `sim` (the simulator, reproducible) or `cluster`. */
  backend?: BackendName;
  /** Sim only: virtual time per real time (default 1), or `max`. */
  speed?: number | 'max';
  /**
   * The seed of the backend and of the presets' jobs (as `schedlab run --seed`); unset, the
   * backend uses `DEFAULT_SEED` and a preset its own seed.
   */
  seed?: number;
  /** Runs the session on this backend instead of making one (no backend switch then). */
  external?: Backend;
  /** The Redis of the cluster backend: offers `cluster` (and `backend: 'cluster'` needs it). */
  redis?: string;
  /** The cluster backend: its executor's `pipeline` (default true; live-backends.ts). */
  pipeline?: boolean;
  /** What presets are fitted to (default: this machine's cores). */
  cores?: number;
  /** Directories user modules may load from (real paths); none by default. */
  modules?: readonly string[];
}

export interface LiveSession extends HostSession<CommandResult, Snapshot, Frame> {
  /** The engine session running now (another one after a backend switch). */
  readonly session: Session;
  /** The backend it runs on. */
  readonly backendName: BackendName;
  /** The configuration now (what a host remembers on quit). */
  config(): EngineConfig;
  /** The session was replaced: every client needs a fresh snapshot. */
  onReset(listener: () => void): () => void;
  /** Stops frames and the executor, and terminates the worker threads. */
  close(): Promise<void>;
}

export async function startLiveSession(options: LiveSessionOptions = {}): Promise<LiveSession> {
  const backend = options.backend ?? 'threads';
  const open: OpenOptions = {
    config: options.config ?? {},
    preset: options.preset === undefined ? DEFAULT_PRESET : options.preset,
    frameHz: options.frameHz ?? 10,
    log: options.log ?? (() => {}),
    ...(options.workloads === undefined ? {} : { workloads: options.workloads }),
    ...(options.external === undefined ? {} : { external: options.external }),
    ...(options.redis === undefined ? {} : { redis: options.redis }),
    ...(options.pipeline === undefined ? {} : { pipeline: options.pipeline }),
    ...(options.cores === undefined ? {} : { cores: options.cores }),
    ...(options.modules === undefined ? {} : { modules: options.modules }),
  };
  const first = await openLiveSession(
    {
      backend,
      ...(options.speed === undefined ? {} : { speed: options.speed }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    },
    open,
  );
  // An external backend is the caller's: the session cannot make another.
  const offered: BackendName[] =
    options.external !== undefined
      ? [backend]
      : ['threads', 'sim', ...(options.redis === undefined ? [] : ['cluster' as const])];
  const host = new BackendSwitch(first, offered, open);

  let closed: Promise<void> | null = null;
  return {
    get session() {
      return host.current.session;
    },
    get backendName() {
      return host.current.name;
    },
    handleCommand: (command) => host.handleCommand(command),
    snapshot: () => host.snapshot(),
    onFrame: (listener) => host.onFrame(listener),
    onReset: (listener) => host.onReset(listener),
    spanCount: (frame) => frame.spans.count,
    config: () => host.current.session.executor.config,
    close: () => (closed ??= host.close()),
  };
}
