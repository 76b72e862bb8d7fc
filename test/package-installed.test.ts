// The package as a service installs it: `npm pack` (what a tarball or a git dependency gets),
// unpacked into a service's node_modules beside its dependencies and nothing else (not the
// optional peers: bullmq, ioredis, esbuild), then used from plain Node — a run, the console's
// page, the CLI. Before `files` and a `prepare` that builds the app page, a packed SchedLab had
// no dist/ at all, and the console looked for sources an installed copy does not have.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../engine/host/server/renderer-build.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Outside the checkout, so that only what the service's node_modules holds resolves.
const SERVICE = join(tmpdir(), `schedlab-installed-${process.pid}`);
const INSTALLED = join(SERVICE, 'node_modules', 'schedlab');

/** What `npm install schedlab` puts beside it: its dependencies and theirs, linked from ours. */
function linkDependencies(from: string): void {
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const target = join(SERVICE, 'node_modules', name);
    try {
      symlinkSync(join(ROOT, 'node_modules', name), target, 'dir');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    linkDependencies(join(ROOT, 'node_modules', name));
  }
}

const SERVICE_SCRIPT = `
import { Scheduler } from 'schedlab';
const s = new Scheduler({ workers: 2, policy: 'fair', maxLivePerTenant: 10 });
const doubled = await s.run({ module: new URL('./task.mjs', import.meta.url) }, 21, { tenant: 'acme' });
const served = await s.serveConsole({ port: 0 });
const page = await fetch(served.url);
const html = await page.text();
await s.close();
console.log(JSON.stringify({ doubled, status: page.status, app: html.includes('id="root"') }));
`;

const plainNode = (args: string[]) =>
  execFileSync(process.execPath, args, {
    cwd: SERVICE,
    encoding: 'utf8',
    timeout: 60_000,
    // A loader vitest put in NODE_OPTIONS would hide a file missing from the package.
    env: { ...process.env, NODE_OPTIONS: '' },
  });

let packed: string[] = [];

beforeAll(() => {
  ensureRendererBuilt(ROOT, () => {});
  rmSync(SERVICE, { recursive: true, force: true });
  mkdirSync(join(SERVICE, 'node_modules'), { recursive: true });
  const out = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', SERVICE],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  packed = info!.files.map((f) => f.path);
  execFileSync('tar', ['xzf', join(SERVICE, info!.filename), '-C', SERVICE]);
  renameSync(join(SERVICE, 'package'), INSTALLED);
  linkDependencies(INSTALLED);
  writeFileSync(join(SERVICE, 'package.json'), '{ "name": "service", "type": "module" }\n');
  writeFileSync(join(SERVICE, 'task.mjs'), 'export default (x) => x * 2;\n');
  writeFileSync(join(SERVICE, 'service.mjs'), SERVICE_SCRIPT);
}, 180_000);

afterAll(() => rmSync(SERVICE, { recursive: true, force: true }));

describe('the packed package, installed in a service', () => {
  it('holds the build (library, workers, the app page, the CLI) and no tests or source maps', () => {
    for (const file of [
      'dist/lib/engine/index.js',
      'dist/lib/engine/index.d.ts',
      'dist/lib/engine/runtime/threads/worker-entry.js',
      'dist/renderer/index.html',
      'bin/schedlab.js',
    ]) {
      expect(packed).toContain(file);
    }
    expect(packed.filter((f) => /\.test\.|\.map$/.test(f))).toEqual([]);
  });

  it('runs a task and serves the console page from the installed copy', () => {
    const out = plainNode(['service.mjs']);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      doubled: 42,
      status: 200,
      app: true,
    });
  });

  it('is required from a CommonJS service (Node loads the ES module for require)', () => {
    const script = `const { Scheduler } = require('schedlab');
const s = new Scheduler({ workers: 1 });
s.run('spin', { ms: 1 }, { tenant: 'cjs' })
  .then(() => s.close())
  .then(() => console.log(JSON.stringify({ tenants: s.stats().tenants.map((t) => t.name) })));`;
    writeFileSync(join(SERVICE, 'service.cjs'), script);
    const out = plainNode(['service.cjs']);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ tenants: ['cjs'] });
  });

  it('runs the installed `schedlab` CLI', () => {
    const out = plainNode([
      join(INSTALLED, 'bin', 'schedlab.js'),
      'run',
      'noisy-tenants',
      '--json',
    ]);
    expect(JSON.parse(out)).toMatchObject({
      workload: 'noisy-tenants',
      config: { policy: 'fair' },
    });
  });

  it('ships every file its docs link to and the desktop app entry `attach` opens', () => {
    expect(packed).toContain('electron/attach-entry.mjs');
    const shipped = (path: string) => packed.some((f) => f === path || f.startsWith(`${path}/`));
    const broken: string[] = [];
    for (const doc of packed.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(INSTALLED, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        const path = posix.normalize(posix.join(posix.dirname(doc), target!)).replace(/\/$/, '');
        if (!shipped(path)) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('says where the benchmarks run instead of failing to find them', () => {
    const r = spawnSync(process.execPath, [join(INSTALLED, 'bin', 'schedlab.js'), 'bench'], {
      cwd: SERVICE,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('bench runs in a checkout of the SchedLab repository');
  });

  it('installs no cluster packages; a cluster run says which to install', () => {
    const manifest = JSON.parse(readFileSync(join(INSTALLED, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    for (const name of ['bullmq', 'ioredis', 'esbuild']) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
    }
    const bin = join(INSTALLED, 'bin', 'schedlab.js');
    const redis = ['--redis', 'redis://127.0.0.1:1'];
    for (const args of [
      ['run', 'batch-service', '--backend', 'cluster', ...redis],
      ['worker', ...redis],
    ]) {
      const r = spawnSync(process.execPath, [bin, ...args], {
        cwd: SERVICE,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/the cluster backend needs the packages bullmq and ioredis/);
      expect(r.stderr).toContain('npm install bullmq ioredis (CLUSTER_UNAVAILABLE)');
    }
  });
});
