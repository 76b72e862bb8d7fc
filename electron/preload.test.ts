// The preload runs in Electron's sandbox, which this machine may not have; its bundle is run here
// in a VM context with a recording `electron` module, the way the sandbox would run it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_CHANNEL, PORT_MESSAGE } from '../shared/transport.ts';
import { bundlePreload } from './preload-bundle.ts';

const out = mkdtempSync(join(tmpdir(), 'schedlab-preload-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function loadPreload() {
  const source = readFileSync(bundlePreload(process.cwd(), out), 'utf8');
  const exposed: Record<string, unknown> = {};
  const invoked: unknown[][] = [];
  const listeners = new Map<string, (event: { ports: unknown[] }) => void>();
  const posted: unknown[][] = [];
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: {
      invoke: (...args: unknown[]) => (invoked.push(args), Promise.resolve({ ok: true })),
      on: (channel: string, fn: (event: { ports: unknown[] }) => void) =>
        listeners.set(channel, fn),
    },
  };
  const require = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`the sandbox cannot require ${name}`);
    return electron;
  };
  const window = { postMessage: (...args: unknown[]) => posted.push(args) };
  runInNewContext(source, { require, window, module: { exports: {} }, exports: {} });
  return { source, exposed, invoked, listeners, posted, required };
}

describe('Electron preload', () => {
  it('bundles into one small script that requires only electron (no zod, no files)', () => {
    const { source, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect(source.length).toBeLessThan(4000);
  });

  it('exposes only host and command on window.schedlab; command invokes the one channel', async () => {
    const { exposed, invoked } = loadPreload();
    const api = exposed.schedlab as { host: string; command(c: unknown): Promise<unknown> };
    expect(Object.keys(api).sort()).toEqual(['command', 'host']);
    expect(api.host).toBe('electron');
    await expect(api.command({ type: 'pause' })).resolves.toEqual({ ok: true });
    expect(invoked).toEqual([[COMMAND_CHANNEL, { type: 'pause' }]]);
  });

  it("forwards the frame port from main to the page, addressed to the app's own origin only", () => {
    const { listeners, posted } = loadPreload();
    const port = { name: 'port2' };
    listeners.get(PORT_MESSAGE)?.({ ports: [port] });
    // Never '*': whatever document the frame holds, only app://schedlab receives the port.
    expect(posted).toEqual([[PORT_MESSAGE, 'app://schedlab', [port]]]);
  });
});
