/**
 * `scheduler.serveConsole()`: the app's telemetry and command protocol for a library scheduler,
 * the way tokio-console attaches to a Tokio program. It is browser mode's server (server.ts
 * `startServer`: 127.0.0.1 only, a token guarding the page and the socket) over an engine
 * `Session` that adopts the scheduler's executor, so an attached app sees the service's runs,
 * queues and workers as it sees a local session. Read-only unless `allowControl`: every command
 * but those that only read (`snapshot`, `findJobs`, `jobDetail`, `tenantWeights`) is then answered `READ_ONLY`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { invalidArgument, SchedLabError } from '../../shared/errors.ts';
import {
  commandSchemas,
  type CommandResult,
  type Frame,
  type Snapshot,
} from '../../shared/protocol.ts';
import type { Executor } from '../runtime/executor/index.ts';
import type { HostSession } from '../host/server/host-session.ts';
import { ensureRendererBuilt, rendererDir } from '../host/server/renderer-build.ts';
import { startServer } from '../host/server/server.ts';
import { checkToken } from '../host/server/token-file.ts';
import { commandId } from '../host/session/parse-command.ts';
import { MAX_FRAME_HZ, Session } from '../host/session/index.ts';
import { MAX_PORT } from '../../shared/limits.ts';
import { checkKnownKeys } from './options.ts';

export interface ConsoleOptions {
  /** 0 (the default) picks a free port. Always bound to 127.0.0.1. */
  readonly port?: number;
  /**
   * The token clients must present (16 to 128 characters of A-Z, a-z, 0-9, '-', '_'); default: a
   * fresh random one.
   */
  readonly token?: string;
  /** Let attached clients change the scheduler (configure, pause, cancel…). Default false. */
  readonly allowControl?: boolean;
  /** Build the app's page (`dist/renderer`) first when it is missing or stale. Default true. */
  readonly build?: boolean;
  /** Frames a second to attached clients. Default 10. */
  readonly frameHz?: number;
  readonly log?: (line: string) => void;
}

export interface RunningConsole {
  /** What `schedlab attach` takes (or a browser opens): the page, token included. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stops serving; the scheduler runs on. */
  close(): Promise<void>;
}

/** `ConsoleOptions`' keys: any other is a typo, never ignored (a misspelt `port` would pick one). */
const CONSOLE_OPTIONS: ReadonlySet<string> = new Set<keyof ConsoleOptions>([
  'port',
  'token',
  'allowControl',
  'build',
  'frameHz',
  'log',
]);

/** Checks what `startServer` and the session would not, or would take in another sense. */
function checkConsoleOptions(options: ConsoleOptions): void {
  if (options === null || typeof options !== 'object')
    throw invalidArgument('options', 'must be an object');
  checkKnownKeys(options, CONSOLE_OPTIONS, 'a console option');
  const { port, token, allowControl, build, log, frameHz } = options;
  // Node's `listen` takes a string that is not a number as a pipe's path: never on 127.0.0.1.
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= MAX_PORT)) {
    throw invalidArgument('port', `must be an integer from 0 to ${MAX_PORT} (0: a free port)`);
  }
  // As `schedlab serve --token`: the token goes in the printed URL unescaped, so one with `&`,
  // `#`, `+` or `%` made a URL that the server itself refused.
  if (token !== undefined) {
    if (typeof token !== 'string') throw invalidArgument('token', 'must be a string');
    checkToken(token, 'token');
  }
  if (allowControl !== undefined && typeof allowControl !== 'boolean')
    throw invalidArgument('allowControl', 'must be true or false');
  if (build !== undefined && typeof build !== 'boolean')
    throw invalidArgument('build', 'must be true or false');
  const hzOk = typeof frameHz === 'number' && frameHz > 0 && frameHz <= MAX_FRAME_HZ;
  if (frameHz !== undefined && !hzOk)
    throw invalidArgument(
      'frameHz',
      `must be a number of frames a second, > 0 and <= ${MAX_FRAME_HZ}`,
    );
  if (log !== undefined && typeof log !== 'function')
    throw invalidArgument('log', 'must be a function of one line');
}

export async function serveSchedulerConsole(
  executor: Executor,
  options: ConsoleOptions,
): Promise<RunningConsole> {
  checkConsoleOptions(options);
  const token = options.token;
  const root = packageRoot();
  if (options.build !== false) ensureRendererBuilt(root, options.log ?? (() => {}));
  const session = sessionFor(executor, options.frameHz ?? 10);
  session.start();
  const control = options.allowControl === true;
  const host = control ? session : readOnly(session);
  try {
    const server = await startServer({
      session: host,
      staticDir: rendererDir(root),
      port: options.port ?? 0,
      // A read-only client has nothing large to send: each command it may send fits in far less.
      // At the server's own cap (16 MiB, for workload documents) one message cost 1.4-3.5 s of
      // the service's event loop to parse, only to be refused READ_ONLY.
      ...(control ? {} : { maxMessageBytes: READ_ONLY_MAX_MESSAGE_BYTES }),
      ...(token === undefined ? {} : { token }),
    });
    return {
      url: server.url,
      port: server.port,
      token: server.token,
      close: async () => {
        await server.close();
        session.stop();
      },
    };
  } catch (e) {
    session.stop();
    throw e;
  }
}

/** One session per executor: it counts waits from the first attach on (a visitor set once). */
const sessions = new WeakMap<Executor, Session>();

function sessionFor(executor: Executor, frameHz: number): Session {
  let session = sessions.get(executor);
  if (session === undefined) {
    session = new Session({ adopt: executor, frameHz });
    sessions.set(executor, session);
  } else if (session.frameHz !== frameHz) {
    // Its visitors are set on the executor for good, even when that first serve failed to listen.
    const why = `is ${session.frameHz} for this scheduler's console (its first serveConsole set it) and cannot change`;
    throw invalidArgument('frameHz', why);
  }
  return session;
}

/**
 * The largest message a read-only console takes (bytes): a `findJobs` query is at most 200
 * characters, so its commands are a few hundred bytes; past this, `MESSAGE_TOO_LARGE` and the
 * connection closes, before any of it is parsed.
 */
export const READ_ONLY_MAX_MESSAGE_BYTES = 64 * 1024;

/** Commands that only read: answered even by a read-only console. */
const READ_ONLY_COMMANDS = new Set(['snapshot', 'findJobs', 'jobDetail', 'tenantWeights']);

function readOnly(session: Session): HostSession<CommandResult, Snapshot, Frame> {
  return {
    handleCommand: async (command) => {
      const type = (command as { type?: unknown } | null)?.type;
      // Only a command that would act is refused here; the session answers the rest, a malformed
      // or unknown one with BAD_MESSAGE or UNKNOWN_COMMAND (they read READ_ONLY, naming undefined).
      const acts = typeof type === 'string' && Object.hasOwn(commandSchemas, type);
      if (!acts || READ_ONLY_COMMANDS.has(type)) {
        const result = await session.handleCommand(command);
        if (type !== 'snapshot' || !result.ok) return result;
        return { ...result, snapshot: readOnlySnapshot(result['snapshot'] as Snapshot) };
      }
      const id = commandId(command);
      const error = {
        code: 'READ_ONLY' as const,
        message: `${String(type)} is refused: the service serves its console read-only (allowControl is off)`,
        field: 'type',
      };
      return id === undefined ? { ok: false, error } : { ok: false, error, id };
    },
    // Said in every snapshot, so the app disables its controls rather than have each refused.
    snapshot: () => readOnlySnapshot(session.snapshot()),
    onFrame: (listener) => session.onFrame(listener),
    spanCount: (frame) => session.spanCount(frame),
  };
}

function readOnlySnapshot(snapshot: Snapshot): Snapshot {
  return { ...snapshot, readOnly: true };
}

/**
 * The folder of SchedLab's package.json, walking up from here: engine/lib in a checkout,
 * dist/lib/engine/lib in a build, node_modules/schedlab/dist/lib/engine/lib when installed.
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isSchedLabPackage(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new SchedLabError('INVALID_ARGUMENT', 'SchedLab package root not found');
    dir = up;
  }
  return dir;
}

function isSchedLabPackage(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'schedlab';
  } catch {
    return false;
  }
}
