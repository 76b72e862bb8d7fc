// The renderer is a static bundle: the same `dist/renderer` is loaded by Electron (file://) and
// served by browser mode over HTTP, so every asset URL is relative (`base: './'`).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: { outDir, emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 2000 },
  server: { host: '127.0.0.1' },
});
