import { describe, expect, it } from 'vitest';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { createElectronTransport, type Bridge } from './electron-transport.ts';
import type { ConnectionStatus } from './transport.ts';

describe('Electron transport', () => {
  it('commands go through the bridge; frames arrive over the port handed over by the preload', async () => {
    const sent: unknown[] = [];
    const bridge: Bridge = {
      host: 'electron',
      command: async (c) => {
        sent.push(c);
        return { ok: true };
      },
    };
    const target = new EventTarget() as unknown as Window;
    const t = createElectronTransport(bridge, target);
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    expect(statuses).toEqual(['connecting']);

    const { port1, port2 } = new MessageChannel();
    const got = new Promise<number>((resolve) => t.onFrame((f) => resolve(f.seq)));
    target.dispatchEvent(new MessageEvent('message', { data: 'schedlab:port', ports: [port2] }));
    expect(statuses.at(-1)).toBe('open');
    port1.postMessage({ type: 'frame', frame: syntheticFrame({ seq: 3, timeMs: 1 }) });
    expect(await got).toBe(3);

    expect(await t.send({ type: 'pause' })).toEqual({ ok: true });
    expect(sent).toEqual([{ type: 'pause' }]);
    t.close();
    port1.close();
  });

  it('a bridge that throws answers with a coded error instead of rejecting', async () => {
    const bridge: Bridge = {
      host: 'electron',
      command: () => Promise.reject(new Error('main process gone')),
    };
    const t = createElectronTransport(bridge, new EventTarget() as unknown as Window);
    expect(await t.send({ type: 'pause' })).toMatchObject({
      ok: false,
      error: { code: 'ENGINE_CLOSED', message: 'main process gone' },
    });
    t.close();
  });
});
