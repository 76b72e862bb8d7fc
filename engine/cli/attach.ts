/**
 * `schedlab attach URL`: opens the app on a console a service serves (`scheduler.serveConsole()`,
 * engine/lib/console.ts). Checks first that the console answers and takes the token, so a typo or
 * a stopped service is one clear line rather than a blank page; then prints the URL and opens it:
 * in the desktop app where an Electron binary exists (a window on the console's page, no engine of
 * its own: electron/attach-main.ts), else — saying so — in the system's browser. `--browser`
 * skips Electron; `--no-open` only prints the URL. Either way the app is browser mode's page,
 * served by the service, so an attached session looks like a local one.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs } from './args.ts';
import { findElectronBinary } from '../host/electron-binary.mjs';
import { ATTACH_URL_ENV } from '../../shared/transport.ts';
import { COMPILED } from '../runtime/compiled.ts';
import type { CliIo } from './io.ts';
import { UsageError } from './usage-error.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function attachCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    'no-open': { type: 'boolean' },
    browser: { type: 'boolean' },
  });
  if (positionals.length > 1)
    throw new UsageError(`attach takes one URL, got also ${positionals[1]!}`, 'url');
  const given = consoleUrl(positionals[0]);
  // The console's page is its root: only it checks the token (a path it does not serve is a 404,
  // token or not), so the check and the window go there whatever path was pasted.
  const url = new URL(`/?token=${encodeURIComponent(given.searchParams.get('token')!)}`, given);
  let status: number;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    status = res.status;
  } catch (e) {
    throw new UsageError(
      `${url.origin} does not answer (${(e as Error).message}): is the service running?`,
      'url',
    );
  }
  if (status === 401)
    throw new UsageError(
      `${url.origin} refused the token: copy the URL the service printed`,
      'url',
    );
  // 503: the service's package has no built page (dist/renderer); the protocol still answers.
  const noPage = status === 503;
  if (status === 404)
    throw new UsageError(
      `${url.origin} is not a SchedLab console (its page answered HTTP 404)`,
      'url',
    );
  if (status !== 200 && !noPage)
    throw new UsageError(`${url.origin} answered HTTP ${status}`, 'url');
  io.out(`SchedLab console: ${url.href}\n`);
  if (noPage) io.err('the service serves no page (its dist/renderer is not built)\n');
  if (values['no-open'] === true) return 0;
  const electron = values.browser === true ? null : findElectronBinary();
  if (electron !== null && electron.path !== null) {
    io.out('opening it in the desktop app (--browser: in your browser instead)\n');
    openInElectron(electron.path, url.href, io);
  } else {
    if (electron !== null) {
      io.out(`Electron is not available (${electron.reason}): opening it in your browser\n`);
    }
    openInBrowser(url.href, io);
  }
  return 0;
}

/** electron/attach-entry.mjs: two folders up from engine/cli, four from dist/lib/engine/cli. */
export const ATTACH_ENTRY = fileURLToPath(
  new URL(`${COMPILED ? '../../../..' : '../..'}/electron/attach-entry.mjs`, import.meta.url),
);

/** The desktop app on the console (detached: `attach` returns, the window stays). */
function openInElectron(binary: string, url: string, io: CliIo): void {
  // The URL (token included) goes in the environment, not the arguments, which every local
  // user can read in the process list while the window is open (ATTACH_URL_ENV).
  const env: NodeJS.ProcessEnv = { ...process.env, [ATTACH_URL_ENV]: url };
  delete env.ELECTRON_RUN_AS_NODE; // would turn the binary into a plain Node
  // Chromium refuses to run as root with its OS sandbox; the page keeps `sandbox: true`, which
  // without the OS sandbox holds back far less: said, not done silently.
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (asRoot) {
    io.err(
      "running as root: the desktop app runs without Chromium's OS sandbox (--no-sandbox); attach as another user, or with --browser, to keep it\n",
    );
  }
  const args = [...(asRoot ? ['--no-sandbox'] : []), ATTACH_ENTRY];
  const child = spawn(binary, args, { stdio: 'ignore', detached: true, env });
  child.on('error', (e) =>
    io.err(`the desktop app did not start (${e.message}): open the URL above\n`),
  );
  child.unref();
}

function consoleUrl(text: string | undefined): URL {
  if (text === undefined) throw new UsageError('attach needs the URL the service printed', 'url');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${text} is not a URL`, 'url');
  }
  if (url.protocol !== 'http:')
    throw new UsageError(`${text}: the console speaks http: on loopback`, 'url');
  if (!LOOPBACK.has(url.hostname)) {
    throw new UsageError(
      `${url.hostname} is not loopback: consoles listen on 127.0.0.1 only (forward the port, e.g. ssh -L)`,
      'url',
    );
  }
  if (!url.searchParams.get('token'))
    throw new UsageError(`${text} has no token= parameter`, 'url');
  return url;
}

/** The system's opener; failing to open is not an error (the URL is printed). */
function openInBrowser(url: string, io: CliIo): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => io.err('no browser could be opened: open the URL above\n'));
  child.unref();
}
