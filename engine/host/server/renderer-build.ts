/**
 * Browser mode and the Electron window load the built renderer (`dist/renderer`). This builds it
 * with Vite when it is missing or older than its sources, so `npm start` and the e2e suite never
 * show a stale UI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Sources whose change makes the build stale (the renderer imports `shared/`). */
const SOURCES = ['renderer', 'shared', 'vite.config.ts', 'package.json'];

export function rendererDir(root: string): string {
  return join(root, 'dist', 'renderer');
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * Why the renderer must be (re)built, or null when `dist/renderer` is current. An installed
 * package (no `renderer/` sources beside it) has only the build it was packed with.
 */
export function rendererBuildReason(root: string): string | null {
  const index = join(rendererDir(root), 'index.html');
  if (!existsSync(index)) return 'dist/renderer is not built yet';
  if (!existsSync(join(root, 'renderer'))) return null;
  const built = statSync(index).mtimeMs;
  const newest = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  return newest > built ? 'the renderer sources changed since the last build' : null;
}

/**
 * Runs `npx vite build` when needed; quiet on success (one line through `log`), the build's own
 * output on failure, which throws.
 */
export function ensureRendererBuilt(root: string, log: (line: string) => void): void {
  const reason = rendererBuildReason(root);
  if (reason === null) return;
  if (!existsSync(join(root, 'renderer'))) {
    // An installed package is packed with its build (`prepare`); without it there is nothing
    // to build from.
    throw new Error(
      `${reason}, and this copy of SchedLab has no renderer sources to build it from`,
    );
  }
  log(`Building the renderer (${reason}): npx vite build`);
  const started = Date.now();
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, ['vite', 'build', '--logLevel', 'warn'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (result.status !== 0 || !existsSync(join(rendererDir(root), 'index.html'))) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(`npx vite build failed (exit ${String(result.status)}):\n${output}`);
  }
  log(`Built the renderer in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
