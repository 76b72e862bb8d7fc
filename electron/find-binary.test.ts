// `npm start` and the e2e runner decide between Electron and browser mode with this; it must
// never trigger the electron package's download (which hangs or fails offline).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from './find-binary.mjs';

let dir: string;
const saved = process.env.ELECTRON_OVERRIDE_DIST_PATH;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'schedlab-electron-'))));
afterEach(() => {
  if (saved === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
  else process.env.ELECTRON_OVERRIDE_DIST_PATH = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('findElectronBinary', () => {
  it('finds a binary under ELECTRON_OVERRIDE_DIST_PATH', () => {
    const binary = join(dir, 'electron');
    writeFileSync(binary, '#!/bin/sh\n');
    chmodSync(binary, 0o755);
    process.env.ELECTRON_OVERRIDE_DIST_PATH = dir;
    expect(findElectronBinary()).toEqual({ path: binary });
  });

  it('says why there is none, naming the path it looked at', () => {
    process.env.ELECTRON_OVERRIDE_DIST_PATH = dir;
    const found = findElectronBinary();
    expect(found.path).toBeNull();
    expect('reason' in found ? found.reason : '').toContain(dir);
  });
});
