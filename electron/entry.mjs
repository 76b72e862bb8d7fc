// Electron's main-process entry (`electron electron/entry.mjs`, as `npm start` runs it): the main
// process runs compiled JavaScript (dist/lib/electron, built by `npm run build`, which `npm start`
// runs first), with no TypeScript loader in the app.
import { existsSync } from 'node:fs';

const main = new URL('../dist/lib/electron/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('schedlab: the app is not built (dist/lib is missing); run `npm run build` first');
  process.exit(1);
}
await import(main.href);
