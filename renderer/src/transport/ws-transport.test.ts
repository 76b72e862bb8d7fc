import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import type { ConnectionStatus } from './transport.ts';
import { createWebSocketTransport, dropTokenFromAddress, webSocketUrl } from './ws-transport.ts';

/** Just enough of a WebSocket for the transport: the test plays the host. */
class FakeSocket {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  /** Closed by either side; 1006: dropped without a close frame (a blip, a host not there). */
  close(code = 1006, reason = '') {
    this.onclose?.({ code, reason });
  }
  host(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

function transport() {
  return createWebSocketTransport({
    url: 'ws://127.0.0.1:1/ws?token=t',
    socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
    minBackoffMs: 100,
    maxBackoffMs: 400,
  });
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('WebSocket transport', () => {
  it('builds the socket URL from the page URL, carrying the token', () => {
    expect(webSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080', search: '?token=a b' })).toBe(
      'ws://127.0.0.1:8080/ws?token=a%20b',
    );
  });

  it('takes the token out of the address bar, keeping the rest of the URL', () => {
    const calls: string[] = [];
    const hist = {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => calls.push(url),
    };
    dropTokenFromAddress({ href: 'http://127.0.0.1:8080/?view=gantt&token=abc#x' }, hist);
    expect(calls).toEqual(['/?view=gantt#x']);
    dropTokenFromAddress({ href: 'http://127.0.0.1:8080/' }, hist);
    expect(calls).toHaveLength(1);
  });

  it('sends {id, command} and resolves with the reply of the same id', async () => {
    const t = transport();
    const ws = FakeSocket.all[0]!;
    ws.onopen?.();
    const first = t.send({ type: 'pause' });
    const second = t.send({ type: 'resume' });
    const [a, b] = ws.sent.map((s) => JSON.parse(s) as { id: number; command: { type: string } });
    expect(a!.command.type).toBe('pause');
    ws.host({ type: 'reply', id: b!.id, result: { ok: true, paused: false } });
    ws.host({ type: 'reply', id: a!.id, result: { ok: true, paused: true } });
    expect(await first).toEqual({ ok: true, paused: true });
    expect(await second).toEqual({ ok: true, paused: false });
  });

  it('an error envelope naming a command id answers that command with the error', async () => {
    const t = transport();
    const ws = FakeSocket.all[0]!;
    ws.onopen?.();
    const pending = t.send({ type: 'pause' });
    const { id } = JSON.parse(ws.sent[0]!) as { id: number };
    ws.host({
      type: 'error',
      id,
      error: { code: 'BAD_MESSAGE', message: 'command: bad', field: 'command' },
    });
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'BAD_MESSAGE', field: 'command' },
    });
  });

  it('delivers snapshots and frames, ignores what is not an envelope', () => {
    const t = transport();
    const ws = FakeSocket.all[0]!;
    const frames: number[] = [];
    const snapshots: number[] = [];
    t.onFrame((f) => frames.push(f.seq));
    t.onSnapshot((s) => snapshots.push(s.frame.seq));
    const frame = syntheticFrame({ seq: 7, timeMs: 1 });
    ws.host({
      type: 'snapshot',
      snapshot: {
        type: 'snapshot',
        frame,
        spans: frame.spans,
        events: [],
        policies: [],
        frameHz: 10,
      },
    });
    ws.host({ type: 'frame', frame });
    ws.onmessage?.({ data: 'not json' });
    ws.host({ type: 'nonsense' });
    expect(snapshots).toEqual([7]);
    expect(frames).toEqual([7]);
  });

  it('after a close it answers pending commands, reports closed, and reconnects with backoff', async () => {
    const t = transport();
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    const pending = t.send({ type: 'pause' });
    FakeSocket.all[0]!.close();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ENGINE_CLOSED' } });
    expect(statuses.at(-1)).toBe('closed');
    expect(await t.send({ type: 'pause' })).toMatchObject({ ok: false });
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.close();
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(2); // backoff doubled to 200 ms
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.onopen?.();
    expect(statuses.at(-1)).toBe('open');
    t.close();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(3); // closed on purpose: no reconnect
  });

  it('a refused token (HTTP 401 after a server restart) ends the session instead of reconnecting', async () => {
    const probes: string[] = [];
    const t = createWebSocketTransport({
      url: 'ws://127.0.0.1:1/ws?token=old',
      socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
      minBackoffMs: 100,
      probe: () => {
        probes.push('probe');
        return Promise.resolve(probes.length === 1 ? null : 401);
      },
    });
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    // The server goes away: an open socket closes, the transport reconnects without probing.
    FakeSocket.all[0]!.close();
    expect(probes).toEqual([]);
    vi.advanceTimersByTime(100);
    // Still down: the page cannot be fetched either (null), so it keeps trying.
    FakeSocket.all[1]!.close();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(FakeSocket.all).toHaveLength(3);
    // Back with a new token: the page answers 401. The session has ended; no more attempts.
    FakeSocket.all[2]!.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toBe('ended');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('a host that says it stops (1001 "server closing") is looked for a few times, then stopped', async () => {
    const probes: string[] = [];
    const t = createWebSocketTransport({
      url: 'ws://127.0.0.1:1/ws?token=t',
      socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
      minBackoffMs: 100,
      maxBackoffMs: 400,
      stoppedRetries: 3,
      // Nothing listens on the port any more: the page cannot be fetched.
      probe: () => {
        probes.push('probe');
        return Promise.resolve(null);
      },
    });
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    // As engine/host/server/server.ts closes every socket when it shuts down.
    FakeSocket.all[0]!.close(1001, 'server closing');
    expect(statuses.at(-1)).toBe('stopped');
    // Tried again in case it restarted at once on the same port, saying `stopped` all along.
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(400);
      expect(FakeSocket.all).toHaveLength(i + 1);
      FakeSocket.all[i]!.close();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(probes).toHaveLength(3);
    expect(new Set(statuses.slice(statuses.indexOf('stopped')))).toEqual(new Set(['stopped']));
    // Then no more sockets: only the page is looked at, every maxBackoffMs, quietly.
    await vi.advanceTimersByTimeAsync(4_000);
    expect(FakeSocket.all).toHaveLength(4);
    expect(probes.length).toBeGreaterThanOrEqual(3 + 9);
    expect(statuses.at(-1)).toBe('stopped');
  });

  it('a stopped host back on its port later (a kept token and port) is reconnected to', async () => {
    // Before: after the few quick tries the tab stayed "stopped" for good, though
    // `serve --keep-token --port N` is meant to keep the URL an open tab has.
    let answering = false;
    const t = createWebSocketTransport({
      url: 'ws://127.0.0.1:1/ws?token=t',
      socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
      minBackoffMs: 100,
      maxBackoffMs: 400,
      stoppedRetries: 1,
      probe: () => Promise.resolve(answering ? 200 : null),
    });
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    FakeSocket.all[0]!.close(1001, 'server closing');
    await vi.advanceTimersByTimeAsync(400);
    FakeSocket.all[1]!.close();
    await vi.advanceTimersByTimeAsync(30_000); // away half a minute: the page looks now and then
    expect(FakeSocket.all).toHaveLength(2);
    expect(statuses.at(-1)).toBe('stopped');
    answering = true;
    await vi.advanceTimersByTimeAsync(400);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.onopen?.();
    expect(statuses.at(-1)).toBe('open');
    t.close();
  });

  it('a host that stops and restarts at once on the same port is reconnected to', async () => {
    const t = transport();
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    FakeSocket.all[0]!.close(1001, 'server closing');
    vi.advanceTimersByTime(100);
    FakeSocket.all[1]!.onopen?.();
    expect(statuses.at(-1)).toBe('open');
    // Open again, a later drop is a blip like every other: reconnecting without end.
    FakeSocket.all[1]!.close();
    expect(statuses.at(-1)).toBe('closed');
    for (let i = 2; i < 12; i++) {
      vi.advanceTimersByTime(400);
      expect(FakeSocket.all).toHaveLength(i + 1);
      FakeSocket.all[i]!.close();
    }
    expect(statuses.at(-1)).toBe('closed');
  });

  it('a socket dropped without 1001 (a network blip) keeps reconnecting, never stopped', async () => {
    const t = createWebSocketTransport({
      url: 'ws://127.0.0.1:1/ws?token=t',
      socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
      minBackoffMs: 100,
      maxBackoffMs: 400,
      stoppedRetries: 3,
      probe: () => Promise.resolve(null),
    });
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    FakeSocket.all[0]!.close(1006);
    for (let i = 1; i <= 10; i++) {
      await vi.advanceTimersByTimeAsync(400);
      expect(FakeSocket.all).toHaveLength(i + 1);
      FakeSocket.all[i]!.close();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(statuses).not.toContain('stopped');
    expect(statuses.at(-1)).toBe('closed');
  });

  it('a stopped host whose page answers again on the port is reconnected to without end', async () => {
    const t = createWebSocketTransport({
      url: 'ws://127.0.0.1:1/ws?token=t',
      socketFactory: (url) => new FakeSocket(url) as unknown as WebSocket,
      minBackoffMs: 100,
      maxBackoffMs: 400,
      stoppedRetries: 1,
      // Back on the same port (its page answers), its socket not yet taking connections.
      probe: () => Promise.resolve(200),
    });
    const statuses: ConnectionStatus[] = [];
    t.onStatus((s) => statuses.push(s));
    FakeSocket.all[0]!.onopen?.();
    FakeSocket.all[0]!.close(1001, 'server closing');
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(400);
      expect(FakeSocket.all).toHaveLength(i + 1);
      FakeSocket.all[i]!.close();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(statuses.at(-1)).toBe('closed');
  });
});
