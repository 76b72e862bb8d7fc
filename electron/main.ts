/**
 * The Electron main process (docs/design.md §6–7): hosts one live engine session on real worker
 * threads (the default preset running from launch, the last configuration restored), serves the
 * built renderer on `app://schedlab/`, answers the page's commands on one IPC channel (from our
 * own page only) and streams frames over a MessagePort. User modules run only from folders the
 * user allowed (module-consent.ts). Quitting stops the workers cleanly and remembers the
 * configuration.
 */
import { app, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt, rendererDir } from '../engine/host/server/renderer-build.ts';
import { startLiveSession, type LiveSession } from '../engine/host/server/live-session.ts';
import { registerAppScheme, serveRenderer } from './app-protocol.ts';
import { serveCommands } from './command-ipc.ts';
import { loadLastConfig, loadModuleDirs, saveLastConfig, saveModuleDirs } from './config-store.ts';
import { streamFramesTo } from './frame-port.ts';
import { askInDialog, moduleConsent } from './module-consent.ts';
import { bundlePreload } from './preload-bundle.ts';
import { createAppWindow } from './window.ts';

// The repository root: one folder up from electron/, three from dist/lib/electron (compiled, as the
// app runs it: electron/entry.mjs).
const root = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? '../../..' : '..', import.meta.url),
);
// Its own name, so its own user-data folder (~/.config/SchedLab on Linux), where the folders
// allowed to run code are remembered, and its own single-instance lock: started by Electron's
// default app with no package.json beside it, it was "Electron", a folder every such app shares.
app.setName('SchedLab');
// e2e runs point this at a throw-away folder so they never touch the user's remembered config.
if (process.env.SCHEDLAB_USER_DATA) app.setPath('userData', process.env.SCHEDLAB_USER_DATA);

registerAppScheme();
app.enableSandbox();
if (!app.requestSingleInstanceLock()) app.quit();
else void main();

async function main(): Promise<void> {
  await app.whenReady();
  const log = (line: string) => console.log(`schedlab: ${line}`);
  ensureRendererBuilt(root, log);
  const preload = bundlePreload(root, join(root, 'dist', 'electron'));
  serveRenderer(rendererDir(root));

  const userData = app.getPath('userData');
  // Grown in place as the user allows folders; the session reads it on every load.
  const moduleDirs = loadModuleDirs(userData, log);
  const session = await startLiveSession({
    config: loadLastConfig(userData, log) ?? {},
    log,
    modules: moduleDirs,
  });

  let window: BrowserWindow | null = null;
  const review = moduleConsent({
    allowed: moduleDirs,
    ask: askInDialog(() => window),
    onAllow: (dirs) => {
      try {
        saveModuleDirs(userData, dirs);
      } catch (e) {
        log(`could not remember the module folders: ${String(e)}`);
      }
    },
  });
  serveCommands(session, review);

  window = openWindow(preload, session);
  app.on('second-instance', () => window?.focus());
  app.on('activate', () => {
    if (window === null) window = openWindow(preload, session);
  });
  app.on('window-all-closed', () => {
    window = null;
    if (process.platform !== 'darwin') app.quit();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    void shutdown(session, userData, log).finally(() => app.exit(0));
  });
}

function openWindow(preload: string, session: LiveSession): BrowserWindow {
  const window = createAppWindow(preload);
  const stop = streamFramesTo(window.webContents, session);
  window.on('closed', stop);
  return window;
}

/** Remembers the configuration, then stops the engine and its worker threads. */
async function shutdown(session: LiveSession, userData: string, log: (line: string) => void) {
  try {
    saveLastConfig(userData, session.config());
  } catch (e) {
    log(`could not remember the configuration: ${String(e)}`);
  }
  await session.close();
}
