#!/usr/bin/env node
// `npm start`: opens the desktop app; where no Electron binary can be had (offline installs
// cannot download it), says so and serves the same UI in browser mode instead (docs/design.md §7).
//
//   node bin/start.js [--browser] [--port N] [--no-build]
//     --browser   browser mode even where Electron exists
//     --port N    browser-mode port (default 0: a free one)
//     --no-build  do not (re)build dist/renderer first
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../electron/find-binary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function parseArgs(argv) {
  const options = { browser: false, port: 0, build: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--browser') options.browser = true;
    else if (arg === '--no-build') options.build = false;
    else if (arg === '--port') {
      const port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        console.error('start: --port must be an integer 0..65535');
        process.exit(2);
      }
      options.port = port;
    } else {
      console.error(`start: unknown option ${arg} (known: --browser, --port N, --no-build)`);
      process.exit(2);
    }
  }
  return options;
}

function launchElectron(binary) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would turn the binary into a plain Node
  // Chromium refuses to run as root with its OS sandbox: it exited at once, and start with it,
  // with neither a window nor browser mode. As `schedlab attach` does: without it, said.
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (asRoot) {
    console.error(
      "start: running as root: the desktop app runs without Chromium's OS sandbox (--no-sandbox); run as another user, or with --browser, to keep it",
    );
  }
  const entry = fileURLToPath(new URL('../electron/entry.mjs', import.meta.url));
  const child = spawn(binary, [...(asRoot ? ['--no-sandbox'] : []), entry], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
}

async function serveBrowser(options) {
  // Signals are handled from the start: Ctrl-C during a slow start-up still exits cleanly.
  let running = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  // Compiled (dist/lib): `npm start` builds it first (`prestart`).
  const { serveBrowserMode } = await import('../dist/lib/engine/host/server/browser-mode.js');
  running = await serveBrowserMode({
    root,
    port: options.port,
    build: options.build,
    log: (line) => console.log(line),
  });
  if (stopping) {
    await running.close();
    process.exit(0);
  }
  console.log(`SchedLab (browser mode): ${running.url}`);
  console.log('Open that URL in a browser (the token is required). Ctrl-C stops.');
}

const options = parseArgs(process.argv.slice(2));
const electron = options.browser ? null : findElectronBinary();
if (electron !== null && electron.path !== null) {
  launchElectron(electron.path);
} else {
  if (electron !== null) {
    console.log(
      `Electron is not available on this machine (no binary: ${electron.reason}); ` +
        'serving SchedLab in browser mode instead',
    );
  }
  try {
    await serveBrowser(options);
  } catch (e) {
    console.error(`start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
