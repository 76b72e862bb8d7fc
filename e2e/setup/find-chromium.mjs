// Finds a Chromium for the browser-mode e2e suite, and gets one where none is found, so that
// `npm test` passes by itself on a fresh machine. Order: $CHROMIUM_PATH, a system Chromium,
// Playwright's own download; then Playwright's installer where downloads work, else Debian's
// `chromium` package via apt-get when running as root on Debian. Every step says what it did.
//
//   node e2e/setup/find-chromium.mjs            prints the path (installs if needed)
//   node e2e/setup/find-chromium.mjs --no-install
import { accessSync, constants, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

async function playwrightsOwn() {
  try {
    const { chromium } = await import('playwright-core');
    const path = chromium.executablePath();
    return path && executable(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * A Chromium already on this machine, or null.
 * @returns {Promise<{ path: string, source: string } | null>}
 */
export async function locateChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (executable(fromEnv)) return { path: fromEnv, source: 'CHROMIUM_PATH' };
    console.warn(`find-chromium: CHROMIUM_PATH=${fromEnv} is not an executable; looking further`);
  }
  for (const name of SYSTEM_NAMES) {
    const path = onPath(name);
    if (path) return { path, source: `system ${name}` };
  }
  const own = await playwrightsOwn();
  return own ? { path: own, source: "Playwright's own Chromium" } : null;
}

async function downloadsWork() {
  try {
    const res = await fetch('https://cdn.playwright.dev/', {
      method: 'HEAD',
      signal: AbortSignal.timeout(5000),
    });
    return res.status < 500;
  } catch {
    return false;
  }
}

function run(command, args) {
  console.log(`find-chromium: running ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', timeout: 15 * 60_000 });
  return result.status === 0;
}

/**
 * A Chromium to use, installing one when none is found (unless `install` is false).
 * @returns {Promise<{ path: string, source: string }>}
 */
export async function findChromium({ install = true } = {}) {
  const found = await locateChromium();
  if (found) return found;
  if (!install) throw new Error('no Chromium found (set CHROMIUM_PATH, or install chromium)');
  console.log('find-chromium: no Chromium on this machine (CHROMIUM_PATH, system, Playwright)');

  const tried = [];
  if (await downloadsWork()) {
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    if (run(npx, ['playwright', 'install', 'chromium'])) {
      const own = await playwrightsOwn();
      if (own) return { path: own, source: "Playwright's own Chromium (just installed)" };
    }
    tried.push('`npx playwright install chromium` did not produce a browser');
  } else {
    tried.push("Playwright's download server cannot be reached (offline?)");
  }

  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const debian = existsSync('/etc/debian_version');
  if (root && debian && onPath('apt-get')) {
    if (!run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'])) {
      run('apt-get', ['update']);
      run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
    }
    const path = onPath('chromium');
    if (path) return { path, source: "Debian's chromium package (just installed with apt-get)" };
    tried.push('`apt-get install chromium` did not produce a browser');
  } else {
    tried.push(
      !debian
        ? 'not Debian, so no apt-get install'
        : !root
          ? 'not root, so cannot apt-get install chromium (run: sudo apt-get install chromium)'
          : 'apt-get is not available',
    );
  }
  throw new Error(`find-chromium: could not get a Chromium: ${tried.join('; ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { path, source } = await findChromium({
      install: !process.argv.includes('--no-install'),
    });
    console.log(`find-chromium: using ${path} (${source})`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
