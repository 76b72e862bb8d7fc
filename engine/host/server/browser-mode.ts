/**
 * Browser mode in one call (`npm start` without Electron, `schedlab serve`, the e2e fixture): the
 * renderer built if stale, a live session (real threads, or the seeded simulator) running the
 * default preset, and the token-guarded server on 127.0.0.1 — with a fresh token, or one given or
 * kept in a file (token-file.ts) so a restart keeps the URL. Closing stops the server first, then
 * the workers.
 */
import type { CommandResult } from '../../../shared/protocol.ts';
import { ensureRendererBuilt, rendererDir } from './renderer-build.ts';
import { startLiveSession, type LiveSessionOptions } from './live-session.ts';
import { startServer } from './server.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { resolveToken, type TokenChoice } from './token-file.ts';

export interface BrowserModeOptions extends LiveSessionOptions, TokenChoice {
  /** Repository root (where `dist/renderer` is built). */
  root: string;
  /** 0 picks a free port. */
  port?: number;
  /** Rebuild `dist/renderer` when stale (default true). */
  build?: boolean;
}

export interface BrowserMode {
  /** The URL to open, token included. */
  readonly url: string;
  /** Applies one protocol command to the live session, as a client's would be. */
  handleCommand(command: unknown): Promise<CommandResult>;
  close(): Promise<void>;
}

export async function serveBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const log = options.log ?? (() => {});
  // A bad token or unreadable token file is refused before anything starts.
  const token = resolveToken(options);
  if (options.build !== false) ensureRendererBuilt(options.root, log);
  // `redis` offers the cluster backend (and `backend: 'cluster'` starts on it).
  const live = await startLiveSession(options);
  try {
    const server = await startServer({
      session: live,
      staticDir: rendererDir(options.root),
      port: options.port ?? 0,
      ...(token === undefined ? {} : { token }),
    });
    return {
      url: server.url,
      handleCommand: (command) => live.handleCommand(command),
      close: async () => {
        await server.close();
        await live.close();
      },
    };
  } catch (e) {
    await live.close();
    // The port is the user's choice: a coded error naming it, not an engine failure.
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `port ${options.port} is in use on 127.0.0.1: pick another, or 0 for a free one`,
        'port',
      );
    }
    throw e;
  }
}
