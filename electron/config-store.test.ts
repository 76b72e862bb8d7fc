import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../shared/config.ts';
import { CONFIG_FILE, loadLastConfig, saveLastConfig } from './config-store.ts';

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
