#!/usr/bin/env node
// `npm run build`: the engine, its library, the `schedlab` CLI and Electron's main processes
// (electron/main.ts, electron/attach-main.ts) compiled to JavaScript in dist/lib
// (tsconfig.build.json), plus the plain `.mjs` files the engine loads beside its modules
// (worker boot files, the user-module probe), which tsc does not copy. Starts from an empty
// dist/lib so no file of a deleted source survives.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'lib');
rmSync(out, { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);

function copyMjs(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures') copyMjs(path);
    } else if (entry.name.endsWith('.mjs')) cpSync(join(root, path), join(out, path));
  }
}
copyMjs('engine');
