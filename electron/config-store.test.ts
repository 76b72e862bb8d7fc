import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../shared/config.ts';
import {
  CONFIG_FILE,
  MODULE_DIRS_FILE,
  loadLastConfig,
  loadModuleDirs,
  saveLastConfig,
  saveModuleDirs,
} from './config-store.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'schedlab-config-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('last config remembered across launches', () => {
  it('returns what was saved', () => {
    const config = { ...DEFAULT_ENGINE_CONFIG, levelTimeMultiplier: 3, policy: 'fifo' as const };
    saveLastConfig(join(dir, 'nested'), config);
    expect(loadLastConfig(join(dir, 'nested'))).toEqual(config);
  });

  it('starts from the defaults when there is no file', () => {
    expect(loadLastConfig(dir)).toBeNull();
  });

  it('ignores a corrupt or out-of-range file, saying which field and why', () => {
    const warnings: string[] = [];
    writeFileSync(join(dir, CONFIG_FILE), '{"levelTimeMultiplier": 0.5}');
    expect(loadLastConfig(dir, (w) => warnings.push(w))).toBeNull();
    writeFileSync(join(dir, CONFIG_FILE), '{oops');
    expect(loadLastConfig(dir, (w) => warnings.push(w))).toBeNull();
    expect(warnings).toEqual([
      `ignoring ${CONFIG_FILE}: levelTimeMultiplier must be > 1`,
      `ignoring ${CONFIG_FILE}: not valid JSON`,
    ]);
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe('{oops');
  });
});

describe('module folders the user allowed, remembered across launches', () => {
  it('returns the folders saved, as real paths', () => {
    const kernels = join(dir, 'kernels');
    mkdirSync(kernels);
    saveModuleDirs(join(dir, 'data'), [kernels]);
    expect(loadModuleDirs(join(dir, 'data'))).toEqual([realpathSync(kernels)]);
    expect(loadModuleDirs(join(dir, 'none'))).toEqual([]);
  });

  it('drops a folder that is gone or an entry that is not a path, saying which', () => {
    const kept = join(dir, 'kept');
    mkdirSync(kept);
    writeFileSync(join(dir, 'file'), '');
    writeFileSync(
      join(dir, MODULE_DIRS_FILE),
      JSON.stringify([kept, join(dir, 'gone'), join(dir, 'file'), 42]),
    );
    const warnings: string[] = [];
    expect(loadModuleDirs(dir, (w) => warnings.push(w))).toEqual([realpathSync(kept)]);
    expect(warnings).toEqual([
      `${MODULE_DIRS_FILE}: dropping ${JSON.stringify(join(dir, 'gone'))}, not a folder (any more)`,
      `${MODULE_DIRS_FILE}: dropping ${JSON.stringify(join(dir, 'file'))}, not a folder (any more)`,
      `${MODULE_DIRS_FILE}: dropping 42, not a folder (any more)`,
    ]);
    writeFileSync(join(dir, MODULE_DIRS_FILE), '{"dirs": []}');
    expect(loadModuleDirs(dir, (w) => warnings.push(w))).toEqual([]);
    expect(warnings.at(-1)).toBe(`ignoring ${MODULE_DIRS_FILE}: not a list of folders`);
  });
});
