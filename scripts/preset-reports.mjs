#!/usr/bin/env node
// Every preset's simulator report, text and --json, written to a directory; with --against, each
// is checked against an earlier directory: a change that must leave the reports alone except for
// deliberate additions passes when every value of the old JSON is still there and equal (new keys
// are listed as additions) and every old text line is still there, in order (new lines listed).
// The text header's `wall …` (the run's real time) is the one figure that may differ.
//   node scripts/preset-reports.mjs OUT_DIR [--against OLD_DIR] [preset …]
// All runs use the preset's own seed. About 4 minutes on a busy 2-core machine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const againstAt = args.indexOf('--against');
const against = againstAt >= 0 ? args.splice(againstAt, 2)[1] : undefined;
const [out, ...only] = args;
if (out === undefined) {
  console.error('usage: node scripts/preset-reports.mjs OUT_DIR [--against OLD_DIR] [preset …]');
  process.exit(2);
}
const cli = join(import.meta.dirname, '..', 'bin', 'schedlab.js');
const list = execFileSync(process.execPath, [cli, 'presets'], { encoding: 'utf8' });
const presets =
  only.length > 0 ? only : [...list.matchAll(/^([a-z][a-z0-9-]+)\s/gm)].map((m) => m[1]);
mkdirSync(out, { recursive: true });

/** Paths of `old` missing or different in `now`; paths only `now` has, as additions. */
function compareJson(old, now, path, changed, added) {
  if (old !== null && now !== null && typeof old === 'object' && typeof now === 'object') {
    for (const k of Object.keys(old)) {
      if (!(k in now)) changed.push(`${path}.${k} removed`);
      else compareJson(old[k], now[k], `${path}.${k}`, changed, added);
    }
    if (!Array.isArray(old))
      for (const k of Object.keys(now)) if (!(k in old)) added.push(`${path}.${k}`);
    return;
  }
  if (old !== now) changed.push(`${path}: ${JSON.stringify(old)} → ${JSON.stringify(now)}`);
}

const maskWall = (line) => line.replace(/ · wall [^·]*$/, ' · wall …');

/** Old lines missing from `now` (in order); lines only `now` has, as additions. */
function compareText(old, now, changed, added) {
  const a = old.split('\n').map(maskWall);
  const b = now.split('\n').map(maskWall);
  let j = 0;
  for (const line of a) {
    const at = b.indexOf(line, j);
    if (at < 0) {
      changed.push(`line missing: ${line}`);
      continue;
    }
    for (let k = j; k < at; k++) added.push(b[k]);
    j = at + 1;
  }
  for (let k = j; k < b.length; k++) added.push(b[k]);
}

let failed = false;
for (const name of presets) {
  for (const json of [false, true]) {
    const file = `${name}${json ? '.json' : '.txt'}`;
    const run = [cli, 'run', name, '--backend', 'sim', ...(json ? ['--json'] : [])];
    const text = execFileSync(process.execPath, run, { encoding: 'utf8', maxBuffer: 1 << 28 });
    writeFileSync(join(out, file), text);
    if (against === undefined) continue;
    const old = readFileSync(join(against, file), 'utf8');
    const changed = [];
    const added = [];
    if (json) compareJson(JSON.parse(old), JSON.parse(text), '', changed, added);
    else compareText(old, text, changed, added);
    const shown = (xs) =>
      xs.slice(0, 8).join('\n    ') + (xs.length > 8 ? `\n    … ${xs.length - 8} more` : '');
    if (changed.length > 0) {
      failed = true;
      console.log(`${file}: CHANGED\n    ${shown(changed)}`);
    }
    if (added.length > 0) console.log(`${file}: added\n    ${shown(added)}`);
  }
  console.log(`${name} done`);
}
if (failed) process.exit(1);
