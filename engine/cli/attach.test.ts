// `schedlab attach`: checks the console answers and takes the token before printing its URL,
// then opens it in the desktop app where an Electron binary exists, else in the browser, saying
// so. Electron and the browser are stand-ins here: scripts that record how they were started.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTACH_URL_ENV } from '../../shared/transport.ts';
import { Scheduler } from '../lib/scheduler.ts';
import { main } from './cli.ts';
import { memoryIo } from './io.ts';

describe('schedlab attach', () => {
  let s: Scheduler;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    s = new Scheduler({ workers: 1 });
    const served = await s.serveConsole({ build: false });
    url = served.url;
    close = served.close;
  });
  afterAll(async () => {
    await close();
    await s.close();
  });

  it("prints a live console's URL", async () => {
    const io = memoryIo();
    const code = await main(['attach', url, '--no-open'], io);
    expect(io.text.err).not.toMatch(/schedlab:/);
    expect(code).toBe(0);
    expect(io.text.out).toContain(url);
  });

  it('a URL with another path is checked and opened at the console page', async () => {
    const elsewhere = new URL(url);
    elsewhere.pathname = '/ws';
    const io = memoryIo();
    expect(await main(['attach', elsewhere.href, '--no-open'], io)).toBe(0);
    expect(io.text.out).toContain(`SchedLab console: ${url}`);
  });

  it('a wrong token, no token, or a non-loopback host is one line and exit code 2', async () => {
    const wrong = new URL(url);
    wrong.searchParams.set('token', 'not-the-token');
    // Any path: only the page checks the token, so a pasted path must not skip the check.
    const wrongElsewhere = new URL(wrong);
    wrongElsewhere.pathname = '/x';
    const cases: [string, RegExp][] = [
      [wrong.href, /refused the token/],
      [wrongElsewhere.href, /refused the token/],
      [url.replace(/\?.*$/, ''), /no token/],
      ['http://example.com:80/?token=x', /not loopback/],
      ['nonsense', /not a URL/],
    ];
    for (const [arg, message] of cases) {
      const io = memoryIo();
      expect(await main(['attach', arg, '--no-open'], io)).toBe(2);
      expect(io.text.err).toMatch(message);
    }
  });
});

describe('schedlab attach opens the desktop app, or the browser when there is no Electron', () => {
  let s: Scheduler;
  let url: string;
  let close: () => Promise<void>;
  let dir: string;
  const saved = { path: process.env.PATH, electron: process.env.ELECTRON_OVERRIDE_DIST_PATH };
  beforeAll(async () => {
    s = new Scheduler({ workers: 1 });
    ({ url, close } = await s.serveConsole({ build: false }));
  });
  afterAll(async () => {
    await close();
    await s.close();
  });
  afterEach(() => {
    process.env.PATH = saved.path;
    if (saved.electron === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
    else process.env.ELECTRON_OVERRIDE_DIST_PATH = saved.electron;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A script at `dir/name` that writes its arguments, one a line, to `dir/name.args`. */
  function standIn(name: string): string {
    const file = join(dir, name);
    const env = `printf '%s' "$${ATTACH_URL_ENV}" > "${file}.env"`;
    writeFileSync(file, `#!/bin/sh\n${env}\nprintf '%s\\n' "$@" > "${file}.args"\n`);
    chmodSync(file, 0o755);
    return `${file}.args`;
  }

  /** The stand-in's arguments once it has run (it is started detached). */
  async function argsOf(file: string): Promise<string[]> {
    const deadline = Date.now() + 30_000;
    while (!existsSync(file) || !readFileSync(file, 'utf8').endsWith('\n')) {
      if (Date.now() > deadline) throw new Error(`${file} was never written`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return readFileSync(file, 'utf8').trimEnd().split('\n');
  }

  it.skipIf(process.platform === 'win32')(
    'with an Electron binary: the app window on the console, no browser',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'schedlab-attach-'));
      const electronArgs = standIn('electron');
      const browserArgs = standIn(process.platform === 'darwin' ? 'open' : 'xdg-open');
      process.env.ELECTRON_OVERRIDE_DIST_PATH = dir;
      process.env.PATH = `${dir}:${saved.path ?? ''}`;
      const io = memoryIo();
      expect(await main(['attach', url], io)).toBe(0);
      expect(io.text.out).toContain('opening it in the desktop app');
      const args = await argsOf(electronArgs);
      expect(args.some((a) => a.endsWith(join('electron', 'attach-entry.mjs')))).toBe(true);
      // The token is in its environment, not in its arguments (any local user reads those).
      expect(args.join(' ')).not.toContain(new URL(url).searchParams.get('token')!);
      expect(readFileSync(electronArgs.replace(/\.args$/, '.env'), 'utf8')).toBe(url);
      // As root Chromium's OS sandbox is off (--no-sandbox): said, not done silently.
      if (process.getuid?.() === 0) expect(io.text.err).toMatch(/without Chromium's OS sandbox/);
      expect(existsSync(browserArgs)).toBe(false);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'without one (or with --browser): says so and opens the browser',
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'schedlab-attach-'));
      const browserArgs = standIn(process.platform === 'darwin' ? 'open' : 'xdg-open');
      process.env.ELECTRON_OVERRIDE_DIST_PATH = join(dir, 'no-electron-here');
      process.env.PATH = `${dir}:${saved.path ?? ''}`;
      const io = memoryIo();
      expect(await main(['attach', url], io)).toBe(0);
      expect(io.text.out).toMatch(
        /Electron is not available \(.*no-electron-here.*\): opening it in your browser/,
      );
      expect(await argsOf(browserArgs)).toEqual([url]);

      rmSync(browserArgs);
      const electronArgs = standIn('electron');
      process.env.ELECTRON_OVERRIDE_DIST_PATH = dir; // a binary exists, but --browser wins
      const quiet = memoryIo();
      expect(await main(['attach', url, '--browser'], quiet)).toBe(0);
      expect(await argsOf(browserArgs)).toEqual([url]);
      expect(existsSync(electronArgs)).toBe(false);
      expect(quiet.text.out).not.toContain('Electron');
    },
  );
});
