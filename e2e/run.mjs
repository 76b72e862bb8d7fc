// `npm run test:e2e`: finds (or installs) a Chromium, decides which Playwright projects can run
// here, says so, and runs them. The Electron project needs the Electron binary, which `npm
// install` cannot always download (offline machines); then it is skipped, loudly.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../electron/find-binary.mjs';
import { findChromium } from './setup/find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

let chromium;
try {
  chromium = await findChromium();
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
console.log(`e2e: browser project in ${chromium.path} (${chromium.source})`);

const projects = ['browser'];
const electron = findElectronBinary();
if (electron.path === null) {
  console.log(`e2e: electron project skipped: no Electron binary (${electron.reason})`);
} else {
  console.log(`e2e: electron project with ${electron.path}`);
  projects.push('electron');
}

const playwright = fileURLToPath(import.meta.resolve('@playwright/test/cli'));
const result = spawnSync(
  process.execPath,
  [playwright, 'test', ...projects.map((p) => `--project=${p}`), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium.path } },
);
process.exit(result.status ?? 1);
