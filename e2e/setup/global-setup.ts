// Once per e2e run: make sure `dist/renderer` is current, so every spec sees today's UI.
import { fileURLToPath } from 'node:url';
import { ensureRendererBuilt } from '../../engine/host/server/renderer-build.ts';

export default function globalSetup(): void {
  ensureRendererBuilt(fileURLToPath(new URL('../..', import.meta.url)), (line) =>
    console.log(line),
  );
}
