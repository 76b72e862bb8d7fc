#!/usr/bin/env node
// `schedlab`: runs the CLI compiled to JavaScript (dist/lib, built by `npm run build`, which
// `npm install`, `npm test` and `npm start` run first). Plain Node, no TypeScript loader: tsx
// costs the CLI about half its start-up and every worker thread it starts ~10× its boot.
// Developers can run the sources directly with `npx tsx engine/cli/main.ts`.
import { existsSync } from 'node:fs';

const main = new URL('../dist/lib/engine/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('schedlab: the CLI is not built (dist/lib is missing); run `npm run build` first');
  process.exit(1);
}
await import(main.href);
