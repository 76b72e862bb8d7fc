/**
 * Vitest's global setup: tests that run the compiled package (`import … from 'schedlab'`, the
 * examples) or the CLI (`bin/schedlab.js` runs dist/lib) need dist/lib built from the sources as
 * they are now. Rebuilds it when stale (`scripts/build-if-stale.mjs`); once, before any test file
 * runs, so no test sees it half written.
 */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
}
