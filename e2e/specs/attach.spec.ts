// `schedlab attach` on a service that uses `Scheduler` (issue 15): examples/fair-http run with
// `--console --allow-control` under `fair`, two tenants sending work, the CLI checking the console
// and printing its URL, and the app opened on it. The attached app looks like a local session:
// frames flow, the share panel's groups are the service's tenants, whose weights it sets, and the
// tenants panel lists them with the service's own figures.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/app.ts';
import { openApp, setField, view } from './app-helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = fileURLToPath(new URL('../../examples/fair-http/server.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../bin/schedlab.js', import.meta.url));
const TENANTS = { acme: 2, globex: 1 }; // requests each keeps in flight
const START_TIMEOUT_MS = 60_000;

test.describe.configure({ timeout: 180_000 });

let service: ChildProcess | null = null;
let serviceUrl = '';
let consoleUrl = '';
let loading = false;
const load: Promise<void>[] = [];

test.beforeAll(async ({ host }) => {
  if (host !== 'browser') return;
  // The example imports the compiled package (`npm run build`, run by `npm ci`'s prepare).
  if (!existsSync(`${ROOT}dist/lib/engine/index.js`)) throw new Error('run `npm run build` first');
  const child = spawn(
    process.execPath,
    [
      SERVER,
      '--console',
      '--allow-control',
      '--policy',
      'fair',
      '--workers',
      '2',
      '--quantum-ms',
      '10',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  service = child;
  // It prints `console URL` once its console serves, then `listening URL`.
  const out = await readUntil(child, /listening http/);
  serviceUrl = /listening (http:\S+)/.exec(out)![1]!;
  consoleUrl = /console (http:\S+)/.exec(out)![1]!;
  loading = true;
  for (const [tenant, inFlight] of Object.entries(TENANTS)) {
    for (let i = 0; i < inFlight; i++) load.push(keepSending(tenant));
  }
});

test.afterAll(async () => {
  loading = false;
  await Promise.allSettled(load);
  service?.kill('SIGTERM');
  service = null;
});

test.beforeEach(({ host }) => {
  test.skip(
    host !== 'browser',
    'attach opens the service’s own console page (browser mode’s page); the Electron choice is unit-tested in engine/cli/attach.test.ts',
  );
});

test('attached to a Scheduler service, the app shows its two tenants as groups', async ({
  page,
}) => {
  const attach = spawn(process.execPath, [CLI, 'attach', consoleUrl, '--no-open'], { cwd: ROOT });
  const printed = await readUntil(attach, /SchedLab console: (\S+)/);
  const url = /SchedLab console: (\S+)/.exec(printed)![1]!;
  expect(url).toBe(consoleUrl);

  await openApp(page, url);
  await expect(page.getByTestId('engine-policy')).toContainText('fair');
  const share = page.getByTestId('share');
  await expect(share).toHaveAttribute('data-unit', 'tenant');
  // Both tenants keep work in flight, so both are live groups with service to share.
  const groups = page.getByTestId('fair-groups');
  await expect(groups).toHaveAttribute('data-shares', /acme=/, { timeout: 60_000 });
  await expect(groups).toHaveAttribute('data-shares', /globex=/, { timeout: 60_000 });
  await expect(page.getByTestId('jain')).toHaveAttribute('data-unit', 'tenant');

  // The operator weights a tenant from the app: the service's fair queue takes it, and the
  // share panel labels the tenant with it.
  await view(page, 'controls');
  const echo = page.getByTestId('echo-tenantWeights');
  await expect(echo).toHaveText('engine: every tenant 1');
  await setField(page, 'tenantWeights', 'acme=0');
  await expect(page.getByTestId('error-tenantWeights')).toHaveText(
    'tenantWeights.acme must be >= 0.01',
  );
  await setField(page, 'tenantWeights', 'acme=3');
  await expect(echo).toHaveText('engine: acme=3');
  await expect(page.getByTestId('error-tenantWeights')).toHaveCount(0);
  const stats = (await (await fetch(`${serviceUrl}/stats`)).json()) as {
    tenants: { name: string; weight: number }[];
  };
  expect(stats.tenants.find((t) => t.name === 'acme')?.weight).toBe(3);
  await view(page, 'live');
  await expect(groups).toHaveAttribute('data-shares', /acme ×3=/, { timeout: 30_000 });

  // The tenants panel lists the service's tenants with the numbers its `stats()` gives: the same
  // scheduled time (read later there, so no less), and the weight just set.
  const acme = page.locator('[data-testid="tenant-row"][data-tenant="acme"]');
  await expect(acme).toHaveAttribute('data-weight', '3', { timeout: 30_000 });
  await expect(page.locator('[data-testid="tenant-row"][data-tenant="globex"]')).toHaveCount(1);
  const shownMs = Number(await acme.getAttribute('data-scheduled-ms'));
  const later = (await (await fetch(`${serviceUrl}/stats`)).json()) as {
    tenants: { name: string; scheduledMs: number }[];
  };
  expect(shownMs).toBeGreaterThan(0);
  expect(shownMs).toBeLessThanOrEqual(later.tenants.find((t) => t.name === 'acme')!.scheduledMs);
});

test('attached to a read-only console, the app says so and offers no control that acts', async ({
  page,
}) => {
  // The same service without `--allow-control`: its console refuses every command that acts.
  const child = spawn(process.execPath, [SERVER, '--console', '--workers', '1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  try {
    const out = await readUntil(child, /listening http/);
    await openApp(page, /console (http:\S+)/.exec(out)![1]!);
    await expect(page.getByTestId('read-only')).toBeVisible();
    await expect(page.getByTestId('pause-toggle')).toBeDisabled();
    await view(page, 'controls');
    await expect(page.getByTestId('field-policy')).toBeDisabled();
    await expect(page.getByTestId('field-quantumMs')).toBeDisabled();
    await view(page, 'workloads');
    await expect(page.getByTestId('workload-file')).toBeDisabled();
  } finally {
    child.kill('SIGTERM');
  }
});

/** One request at a time for `tenant`, again and again, while the spec runs. */
async function keepSending(tenant: string): Promise<void> {
  while (loading) {
    try {
      const res = await fetch(`${serviceUrl}/work?tenant=${tenant}&ms=200`);
      await res.arrayBuffer();
    } catch {
      if (loading) await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Reads a child's output until `pattern` matches; fails with the output if it exits first. */
function readUntil(child: ChildProcess, pattern: RegExp): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no match in time:\n${out}`)), START_TIMEOUT_MS);
    const done = (error: Error | null) => {
      clearTimeout(timer);
      child.stdout?.off('data', read);
      child.stderr?.off('data', read);
      child.stdout?.resume();
      child.stderr?.resume();
      if (error === null) resolve(out);
      else reject(error);
    };
    const read = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (pattern.test(out)) done(null);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => done(new Error(`exited (code ${String(code)}):\n${out}`)));
  });
}
