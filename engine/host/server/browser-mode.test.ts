// Browser mode end to end at the protocol level, with the real engine session on real threads.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BrowserMode } from './browser-mode.ts';
import { serveBrowserMode } from './browser-mode.ts';

let root: string;
let app: BrowserMode;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'schedlab-browser-mode-'));
  mkdirSync(join(root, 'dist', 'renderer'), { recursive: true });
  writeFileSync(join(root, 'dist', 'renderer', 'index.html'), '<!doctype html><div id=root>');
  app = await serveBrowserMode({ root, build: false, preset: null, config: { workers: 2 } });
});
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

type Message = Record<string, unknown> & { type: string };

/** Connects and returns a reader that waits for the next message matching a predicate. */
async function connect() {
  const url = new URL(app.url);
  const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`);
  const inbox: Message[] = [];
  let wake = () => {};
  ws.on('message', (data: Buffer) => {
    inbox.push(JSON.parse(data.toString('utf8')) as Message);
    wake();
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (match: (m: Message) => boolean): Promise<Message> => {
    for (;;) {
      const i = inbox.findIndex(match);
      if (i >= 0) return inbox.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  let id = 0;
  const command = async (cmd: object) => {
    const mine = ++id;
    ws.send(JSON.stringify({ id: mine, command: cmd }));
    return (await next((m) => m.type === 'reply' && m.id === mine)).result as Record<
      string,
      unknown
    >;
  };
  return { ws, inbox, next, command };
}

describe('browser mode with a live engine', () => {
  it('greets a client with a snapshot of the engine, then streams numbered frames', async () => {
    const client = await connect();
    const first = await client.next(() => true);
    expect(first.type).toBe('snapshot');
    expect(first.snapshot).toMatchObject({ type: 'snapshot', frameHz: 10 });
    const a = (await client.next((m) => m.type === 'frame')).frame as { seq: number };
    const b = (await client.next((m) => m.type === 'frame')).frame as { seq: number };
    expect(b.seq).toBeGreaterThan(a.seq);
    client.ws.close();
  });

  it('applies a command and echoes the engine state; a bad value is refused, naming the field', async () => {
    const client = await connect();
    const ok = await client.command({ type: 'configure', config: { levelTimeMultiplier: 3 } });
    expect(ok).toMatchObject({ ok: true, config: { levelTimeMultiplier: 3 } });
    const frame = await client.next(
      (m) =>
        m.type === 'frame' &&
        (m.frame as { config: { levelTimeMultiplier: number } }).config.levelTimeMultiplier === 3,
    );
    expect(frame.type).toBe('frame');

    const bad = await client.command({ type: 'configure', config: { levelTimeMultiplier: 1 } });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'INVALID_CONFIG', field: 'levelTimeMultiplier' },
    });
    const unknown = await client.command({ type: 'teleport' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    client.ws.close();
  });

  it('refuses each input that once froze the engine with a coded error, and frames keep flowing', async () => {
    const client = await connect();
    const klass = (over: object) => ({
      name: 'q',
      arrival: { kind: 'once' },
      splits: { leaf: 1 },
      work: { totalMs: 1 },
      ...over,
    });
    const freezers: [object, string, string][] = [
      [{ classes: [klass({ tasks: 1e9 })] }, 'classes[0].tasks', '<= 10000'],
      [
        { classes: [klass({ arrival: { kind: 'once', count: 1e9 } })] },
        'classes[0].arrival.count',
        '<= 1000000',
      ],
      [{ classes: [klass({ splits: { leaf: 1e9 } })] }, 'classes[0].splits.leaf', '<= 10000'],
      [
        { graph: { generator: 'wavefront', rows: 10_000, cols: 10_000 } },
        'graph.cols',
        '<= 1048576 nodes',
      ],
      [
        { generator: 'layered-random', levels: 100_000, width: 100_000 },
        'width',
        '<= 1048576 nodes',
      ],
      [{ graph: { nodes: [{ id: 'a', cost: -1 }] } }, 'graph.nodes[0].cost', '>= 0'],
    ];
    for (const [workload, field, limit] of freezers) {
      const answer = await client.command({ type: 'loadWorkload', workload });
      expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_WORKLOAD', field } });
      expect((answer.error as { message: string }).message).toContain(limit);
    }
    // A graph inside a workload is named under `graph.`, compile errors included.
    const cycle = await client.command({
      type: 'loadWorkload',
      workload: {
        graph: {
          nodes: [{ id: 'a' }, { id: 'b' }],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'a' },
          ],
        },
      },
    });
    expect(cycle).toMatchObject({
      ok: false,
      error: { code: 'INVALID_GRAPH', field: 'graph.edges' },
    });
    // A module path the operator did not allow (`serve` without --modules allows none).
    const module = await client.command({
      type: 'loadWorkload',
      workload: {
        classes: [klass({ work: { kernel: { module: '/etc/passwd' }, totalMs: 1 } })],
      },
    });
    expect(module).toMatchObject({
      ok: false,
      error: { code: 'MODULE_NOT_ALLOWED', field: 'classes[0].work.kernel.module' },
    });
    // The session still streams: two more frames, in order.
    client.inbox.length = 0;
    const a = (await client.next((m) => m.type === 'frame')).frame as { seq: number };
    const b = (await client.next((m) => m.type === 'frame')).frame as { seq: number };
    expect(b.seq).toBeGreaterThan(a.seq);
    client.ws.close();
  });
});

// Last in this file: it moves the shared session to the sim.
describe('a backend switch over the socket', () => {
  it('sends every client a fresh snapshot of the new backend, then its frames', async () => {
    const client = await connect();
    const first = (await client.next((m) => m.type === 'snapshot')).snapshot as {
      backends: string[];
      frame: { backendName: string };
    };
    expect(first.backends).toEqual(['threads', 'sim']);
    expect(first.frame.backendName).toBe('threads');
    const reply = await client.command({ type: 'setBackend', backend: 'sim', mode: 'cancel' });
    expect(reply).toMatchObject({ ok: true, backend: 'sim', mode: 'cancel' });
    const snap = (await client.next((m) => m.type === 'snapshot')).snapshot as {
      frame: { backend: string; backendName: string };
    };
    expect(snap.frame).toMatchObject({ backend: 'sim', backendName: 'sim' });
    client.inbox.length = 0;
    const frame = (await client.next((m) => m.type === 'frame')).frame as { backendName: string };
    expect(frame.backendName).toBe('sim');
    client.ws.close();
  });
});
