import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureRendererBuilt, rendererBuildReason } from './renderer-build.ts';

let root: string;
const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'schedlab-build-'));
  mkdirSync(join(root, 'renderer', 'src'), { recursive: true });
  mkdirSync(join(root, 'shared'));
  writeFileSync(join(root, 'renderer', 'src', 'main.tsx'), '');
  writeFileSync(join(root, 'shared', 'protocol.ts'), '');
  for (const p of [
    'renderer/src/main.tsx',
    'renderer/src',
    'renderer',
    'shared/protocol.ts',
    'shared',
  ])
    at(join(root, p), 1000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function build(seconds: number) {
  mkdirSync(join(root, 'dist', 'renderer'), { recursive: true });
  writeFileSync(join(root, 'dist', 'renderer', 'index.html'), '');
  at(join(root, 'dist', 'renderer', 'index.html'), seconds);
}

describe('renderer build freshness', () => {
  it('asks for a build when dist/renderer is missing', () => {
    expect(rendererBuildReason(root)).toBe('dist/renderer is not built yet');
  });

  it('is current when the build is newer than every source', () => {
    build(2000);
    expect(rendererBuildReason(root)).toBeNull();
  });

  it('is stale when a renderer file or a shared contract changed after the build', () => {
    build(2000);
    at(join(root, 'renderer', 'src', 'main.tsx'), 3000);
    expect(rendererBuildReason(root)).toMatch(/changed/);
    at(join(root, 'renderer', 'src', 'main.tsx'), 1000);
    at(join(root, 'shared', 'protocol.ts'), 3000);
    expect(rendererBuildReason(root)).toMatch(/changed/);
  });

  it('an installed copy (no renderer sources) keeps the build it was packed with', () => {
    build(2000);
    rmSync(join(root, 'renderer'), { recursive: true });
    at(join(root, 'shared', 'protocol.ts'), 3000);
    expect(rendererBuildReason(root)).toBeNull();
    rmSync(join(root, 'dist'), { recursive: true });
    expect(() => ensureRendererBuilt(root, () => {})).toThrow(/no renderer sources/);
  });
});
