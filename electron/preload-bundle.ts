/**
 * Electron's sandboxed preload can `require` only a handful of modules and no files of ours, so
 * main bundles `preload.ts` (with the shared constants it imports, and nothing else) into one
 * CommonJS script before it opens the window. esbuild (tsx's compiler) does it in milliseconds.
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';

/** Writes the bundled preload under `outDir` and returns its path. */
export function bundlePreload(root: string, outDir: string): string {
  const outfile = join(outDir, 'preload.cjs');
  buildSync({
    entryPoints: [join(root, 'electron', 'preload.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'chrome130',
    external: ['electron'],
    logLevel: 'warning',
  });
  return outfile;
}
