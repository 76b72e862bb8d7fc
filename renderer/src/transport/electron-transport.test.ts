import { describe, expect, it } from 'vitest';
import { FRAME_ACK } from '../../../shared/transport.ts';
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

  it('acknowledges each frame it has taken, and passes on what the main process skipped', async () => {
    const bridge: Bridge = { host: 'electron', command: async () => ({ ok: true }) };
    const target = new EventTarget() as unknown as Window;
    const t = createElectronTransport(bridge, target);
    const { port1, port2 } = new MessageChannel();
    const taken: unknown[] = [];
    t.onFrame((f, skipped) => taken.push([f.seq, skipped]));
    target.dispatchEvent(new MessageEvent('message', { data: 'schedlab:port', ports: [port2] }));
    const acks: unknown[] = [];
    const twoAcks = new Promise<void>((resolve) => {
      port1.onmessage = (m) => {
        acks.push(m.data);
        if (acks.length === 2) resolve();
      };
    });
    const skipped = { frames: 7, spans: 120 };
    port1.postMessage({ type: 'snapshot', snapshot: {} });
    port1.postMessage({ type: 'frame', frame: syntheticFrame({ seq: 1, timeMs: 1 }) });
    port1.postMessage({ type: 'frame', skipped, frame: syntheticFrame({ seq: 9, timeMs: 2 }) });
    await twoAcks;
    expect(acks).toEqual([FRAME_ACK, FRAME_ACK]); // frames only: a snapshot is not paced
    expect(taken).toEqual([
      [1, undefined],
      [9, skipped],
    ]);
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
