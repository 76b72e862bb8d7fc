// The fuses a packaged app gets, flipped on a stand-in binary: a file carrying Electron's fuse
// sentinel and wire as a real Electron binary does (the real one cannot be downloaded here).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FUSES, applyFuses } from './fuses.mjs';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, …
const DEFAULT_WIRE = '10110001';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'schedlab-fuses-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeBinary(): string {
  const path = join(dir, 'electron');
  const wire = Buffer.from(DEFAULT_WIRE, 'latin1');
  const head = Buffer.concat([Buffer.from(SENTINEL, 'latin1'), Buffer.from([1, wire.length])]);
  writeFileSync(path, Buffer.concat([Buffer.alloc(64, 7), head, wire, Buffer.alloc(64, 7)]));
  return path;
}

/** The wire as '0'/'1' characters, read straight from the file. */
function wireOf(path: string): string {
  const bytes = readFileSync(path);
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length + 2;
  return bytes.subarray(at, at + DEFAULT_WIRE.length).toString('latin1');
}

describe('Electron fuses for a packaged app', () => {
  it('turns RunAsNode, --inspect and NODE_OPTIONS off and cookie encryption on', () => {
    const wanted = Object.fromEntries(FUSES.map((f) => [f.fuse, f.on]));
    expect(wanted).toEqual({
      RunAsNode: false,
      EnableNodeCliInspectArguments: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableCookieEncryption: true,
    });
    for (const f of FUSES) expect(f.why.length).toBeGreaterThan(0);
  });

  it('flips exactly those fuses on the binary and leaves the rest as they were', async () => {
    const path = fakeBinary();
    expect(await applyFuses(path)).toEqual([]);
    // index: 0 RunAsNode, 1 cookie encryption, 2 NODE_OPTIONS, 3 --inspect, 4–7 untouched
    expect(wireOf(path)).toBe('01000001');
  });

  it('runs as a script: sets the fuses, or exits non-zero naming a file that is no Electron', () => {
    const path = fakeBinary();
    const ok = spawnSync(process.execPath, ['electron/fuses.mjs', path], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('RunAsNode: off');
    expect(wireOf(path)).toBe('01000001');

    const other = join(dir, 'not-electron');
    writeFileSync(other, 'just some bytes');
    const bad = spawnSync(process.execPath, ['electron/fuses.mjs', other], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain(`could not set the fuses on ${other}`);
    expect(bad.stderr).toMatch(/sentinel/);
  });
});
