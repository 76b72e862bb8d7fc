// The renderer is a static bundle: the same `dist/renderer` is loaded by Electron (app://) and
// served by browser mode over HTTP, so every asset URL is relative (`base: './'`).
//
// Hosts may be serving `dist/renderer` while a build runs (an e2e run, `npm start` rebuilding
// stale sources), so the build writes to a private staging folder and swaps it in with two
// renames at the end: a running server never sees a half-written or empty folder.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));
const staging = fileURLToPath(new URL(`./dist/.renderer-build-${process.pid}`, import.meta.url));

function swapIntoPlace(): Plugin {
  let target = '';
  return {
    name: 'schedlab-swap-out-dir',
    apply: 'build',
    configResolved(config) {
      target = config.build.outDir;
    },
    closeBundle() {
      // `--outDir` on the command line builds elsewhere: nothing to swap.
      if (target !== staging || !existsSync(staging)) return;
      const old = `${staging}-old`;
      if (existsSync(outDir)) renameSync(outDir, old);
      renameSync(staging, outDir);
      rmSync(old, { recursive: true, force: true });
    },
  };
}

export default defineConfig(({ command }) => ({
  root,
  base: './',
  plugins: [react(), swapIntoPlace()],
  build: {
    outDir: command === 'build' ? staging : outDir,
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { host: '127.0.0.1' },
}));
