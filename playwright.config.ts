// Two projects over the same specs (e2e/specs): `browser` drives browser mode in a headless
// Chromium; `electron` drives the desktop app through Playwright's Electron support and exists
// only where an Electron binary does. `npm run test:e2e` (e2e/run.mjs) finds or installs the
// Chromium, says when the Electron project is skipped, and runs this.
import { defineConfig } from '@playwright/test';
import { findElectronBinary } from './electron/find-binary.mjs';
import { locateChromium } from './e2e/setup/find-chromium.mjs';

const chromium = process.env.CHROMIUM_PATH ?? (await locateChromium())?.path;
const electron = findElectronBinary();

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './e2e/specs',
  outputDir: './test-results',
  globalSetup: './e2e/setup/global-setup.ts',
  // Each worker runs a real engine with real worker threads: one at a time on small machines.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  // One retry: the specs watch a real engine on real threads whose timing depends on what else the
  // machine runs; a behaviour that fails twice in a row still fails the suite.
  retries: 1,
  // Generous: a real engine on real threads shares small machines with the browser.
  timeout: 120_000,
  // A broken server fails every spec after it: stop after a few instead of running each to its
  // timeout twice, and end (with a report) well inside CI's time.
  maxFailures: 5,
  globalTimeout: 60 * 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    headless: true,
    ...(chromium === undefined
      ? {}
      : { launchOptions: { executablePath: chromium, args: CHROMIUM_ARGS } }),
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'browser', metadata: { host: 'browser' } },
    ...(electron.path === null
      ? []
      : [{ name: 'electron', metadata: { host: 'electron', electronPath: electron.path } }]),
  ],
});
