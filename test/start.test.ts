// `npm start` with an Electron binary (a stand-in that writes its arguments): the app is started
// on its entry; as root with `--no-sandbox`, said, since Chromium refuses its OS sandbox to root
// (before, it exited at once: neither a window nor browser mode).
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'schedlab-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start with an Electron binary', () => {
  it.skipIf(process.platform === 'win32')(
    'starts the app on its entry; as root without the OS sandbox, saying so',
    async () => {
      const binary = join(dir, 'electron');
      writeFileSync(binary, `#!/bin/sh\nprintf '%s\\n' "$@" > "${binary}.args"\n`);
      chmodSync(binary, 0o755);
      const { stderr } = await run(process.execPath, ['bin/start.js', '--no-build'], {
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dir, NODE_OPTIONS: '' },
        timeout: 30_000,
      });
      const args = readFileSync(`${binary}.args`, 'utf8').trimEnd().split('\n');
      expect(args.at(-1)!.endsWith(join('electron', 'entry.mjs'))).toBe(true);
      const root = process.getuid?.() === 0;
      expect(args.includes('--no-sandbox')).toBe(root);
      if (root) expect(stderr).toMatch(/without Chromium's OS sandbox/);
    },
  );
});
