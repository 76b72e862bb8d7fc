// The desktop app's main processes run compiled JavaScript (dist/lib/electron), not TypeScript
// under a loader: each Electron entry is started here by plain Node (no tsx, no vitest loader),
// with a recording stand-in for the `electron` module, exactly as the Electron binary would load it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'schedlab-electron-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every API the main processes touch while loading; `requestSingleInstanceLock` says another
// instance runs, so main quits before opening a window, and each call is printed.
const STAND_IN = `
const say = (what) => console.log('electron:' + what);
export const app = {
  setPath() {}, setName: (name) => say('setName ' + name), enableSandbox: () => say('enableSandbox'),
  requestSingleInstanceLock: () => false, quit: () => say('quit'),
  exit: (code) => say('exit ' + code), whenReady: () => new Promise(() => {}), on() {},
};
export const protocol = { registerSchemesAsPrivileged: () => say('registerSchemes'), handle() {} };
export const net = {}, ipcMain = { handle() {} }, dialog = {}, shell = {};
export class BrowserWindow {}
export class MessageChannelMain {}
export default { app, protocol, net, ipcMain, dialog, shell, BrowserWindow, MessageChannelMain };
`;
const HOOKS = `
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: ${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)}, shortCircuit: true };
  return next(specifier, context);
}
`;
writeFileSync(join(dir, 'electron.mjs'), STAND_IN);
writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
);

function runEntry(entry: string): string {
  return execFileSync(process.execPath, ['--import', join(dir, 'register.mjs'), entry], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A loader vitest put in NODE_OPTIONS would hide a TypeScript file in the compiled graph.
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('the Electron entries', () => {
  it.each(['electron/entry.mjs', 'electron/attach-entry.mjs'])(
    '%s registers no TypeScript loader',
    (entry) => {
      expect(readFileSync(entry, 'utf8')).not.toMatch(/tsx|register\(/);
    },
  );

  it('the app entry loads the compiled main process, which sets up and quits as a second instance', () => {
    const out = runEntry('electron/entry.mjs');
    // Named before anything reads its user-data folder or takes the single-instance lock.
    expect(out.split('\n')[0]).toBe('electron:setName SchedLab');
    expect(out).toContain('electron:registerSchemes');
    expect(out).toContain('electron:enableSandbox');
    expect(out).toContain('electron:quit');
  });

  it('the attach entry loads the compiled attach main, which exits 2 without a console URL', () => {
    const out = runEntry('electron/attach-entry.mjs');
    expect(out).toContain('electron:setName SchedLab attach');
    expect(out).toContain('electron:exit 2');
  });

  it('the compiled `schedlab attach` points Electron at an entry that exists', async () => {
    const attach = (await import(
      pathToFileURL(join(process.cwd(), 'dist/lib/engine/cli/attach.js')).href
    )) as { ATTACH_ENTRY: string };
    expect(attach.ATTACH_ENTRY.endsWith(join('electron', 'attach-entry.mjs'))).toBe(true);
    expect(existsSync(attach.ATTACH_ENTRY)).toBe(true);
  });
});
