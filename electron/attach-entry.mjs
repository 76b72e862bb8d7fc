// The Electron entry of `schedlab attach` (`SCHEDLAB_ATTACH_URL=URL electron electron/attach-entry.mjs`): runs
// the compiled attach main (dist/lib/electron, built by `npm run build`), no TypeScript loader.
import { existsSync } from 'node:fs';

const main = new URL('../dist/lib/electron/attach-main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('schedlab attach: the app is not built (dist/lib is missing); run `npm run build`');
  process.exit(1);
}
await import(main.href);
