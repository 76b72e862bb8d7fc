/**
 * `schedlab attach URL`: opens the app on a console a service serves (`scheduler.serveConsole()`,
 * engine/lib/console.ts). Checks first that the console answers and takes the token, so a typo or
 * a stopped service is one clear line rather than a blank page; then prints the URL and opens it
 * in the system's browser (`--no-open`: only prints it). The desktop app does not attach yet: its
 * window runs its own engine over IPC, so an attached session is browser mode's page.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { CliIo } from './io.ts';
import { UsageError } from './usage-error.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function attachCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'no-open': { type: 'boolean' } },
  });
  const url = consoleUrl(positionals[0]);
  let status: number;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    status = res.status;
  } catch (e) {
    throw new UsageError(
      `${url.origin} does not answer (${(e as Error).message}): is the service running?`,
    );
  }
  if (status === 401)
    throw new UsageError(`${url.origin} refused the token: copy the URL the service printed`);
  // 503: the service's package has no built page (dist/renderer); the protocol still answers.
  const noPage = status === 503 || status === 404;
  if (status !== 200 && !noPage) throw new UsageError(`${url.origin} answered HTTP ${status}`);
  io.out(`SchedLab console: ${url.href}\n`);
  if (noPage) io.err('the service serves no page (its dist/renderer is not built)\n');
  if (values['no-open'] !== true) openInBrowser(url.href, io);
  return 0;
}

function consoleUrl(text: string | undefined): URL {
  if (text === undefined) throw new UsageError('attach needs the URL the service printed');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${text} is not a URL`);
  }
  if (url.protocol !== 'http:')
    throw new UsageError(`${text}: the console speaks http: on loopback`);
  if (!LOOPBACK.has(url.hostname)) {
    throw new UsageError(
      `${url.hostname} is not loopback: consoles listen on 127.0.0.1 only (forward the port, e.g. ssh -L)`,
    );
  }
  if (!url.searchParams.get('token')) throw new UsageError(`${text} has no token= parameter`);
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
