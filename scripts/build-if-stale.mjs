#!/usr/bin/env node
// Builds dist/lib (`npm run build`) when it is missing or older than any engine, shared or electron
// source, so nothing that runs the compiled code (the package, `bin/schedlab.js`, the Electron
// entries) meets stale code: vitest's global setup and the e2e runner call it first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(root, 'dist', 'lib', 'engine', 'cli', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync(ENTRY) ? statSync(ENTRY).mtimeMs : 0;
const sources = Math.max(
  newestSource(join(root, 'engine')),
  newestSource(join(root, 'shared')),
  newestSource(join(root, 'electron')),
  statSync(join(root, 'tsconfig.build.json')).mtimeMs,
);
if (built < sources) {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
