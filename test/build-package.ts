/**
 * Vitest's global setup: tests that run the compiled package (`import … from 'schedlab'`, the
 * examples) need dist/lib built from the sources as they are now. Builds it (`npm run build`, a
 * few seconds) when it is missing or older than any source file it is made from; once, before
 * any test file runs, so no test sees it half written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'dist/lib/engine/index.js';

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const built = existsSync(ENTRY) ? statSync(ENTRY).mtimeMs : 0;
  const sources = Math.max(newestSource('engine'), newestSource('shared'));
  if (built >= sources) return;
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
}
