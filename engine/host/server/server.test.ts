import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AnyHostSession } from './host-session.ts';
import { startServer, type RunningServer } from './server.ts';

/** A session whose frames the test emits by hand; commands echo back. */
class HandSession implements AnyHostSession {
  private listeners = new Set<(frame: unknown) => void>();
  handleCommand(command: unknown): Promise<unknown> {
    return Promise.resolve({ ok: true, echo: command });
  }
  snapshot(): unknown {
    return { seq: 0, config: { policy: 'mlfq' } };
  }
  onFrame(listener: (frame: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  spanCount(frame: unknown): number {
    return (frame as { spans: unknown[] }).spans.length;
  }
  emit(frame: unknown): void {
    for (const l of this.listeners) l(frame);
  }
}

/** A WebSocket client that queues what it receives and waits for a matching message. */
class Client {
  readonly ws: WebSocket;
  private readonly inbox: Record<string, unknown>[] = [];
  private waiter: (() => void) | undefined;
  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer) => {
      this.inbox.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      this.waiter?.();
    });
  }
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }
  /** Removes and returns the first message matching `match`, waiting for it to arrive. */
  async next(match: (m: Record<string, unknown>) => boolean = () => true) {
    for (;;) {
      const i = this.inbox.findIndex(match);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}

let dir: string;
let session: HandSession;
let server: RunningServer;
const wsUrl = (token: string) => `ws://127.0.0.1:${server.port}/ws?token=${token}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'schedlab-server-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>SchedLab</title>');
  writeFileSync(join(dir, 'app.js'), 'export {};');
  session = new HandSession();
  server = await startServer({ session, staticDir: dir });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('browser-mode server', () => {
  it('serves the page only with the printed token, under a strict CSP', async () => {
    const ok = await fetch(server.url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('SchedLab');
    expect(ok.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`http://127.0.0.1:${server.port}/?token=wrong`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${server.port}/app.js`)).status).toBe(200);
  });

  it('never serves a file outside the renderer folder', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/%2e%2e%2f%2e%2e%2fetc%2fpasswd`);
    expect(res.status).toBe(404);
  });

  it('refuses a WebSocket with a wrong token with HTTP 401', async () => {
    const ws = new WebSocket(wsUrl('nope'));
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.on('error', () => resolve(undefined));
    });
    expect(status).toBe(401);
  });

  it('listens on 127.0.0.1 only', async () => {
    expect(server.address).toBe('127.0.0.1');
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
    if (external === undefined) return; // no other interface to try on this machine
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(server.port, external.address);
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it('sends a snapshot first, then answers commands by id', async () => {
    const client = new Client(wsUrl(server.token));
    await client.opened();
    const first = await client.next();
    expect(first).toEqual({ type: 'snapshot', snapshot: { seq: 0, config: { policy: 'mlfq' } } });
    client.ws.send(JSON.stringify({ id: 7, command: { type: 'pause' } }));
    const reply = await client.next((m) => m.type === 'reply');
    expect(reply).toEqual({ type: 'reply', id: 7, result: { ok: true, echo: { type: 'pause' } } });
    client.ws.close();
  });

  it('answers a malformed message with a coded error naming the field and keeps the connection', async () => {
    const client = new Client(wsUrl(server.token));
    await client.opened();
    await client.next((m) => m.type === 'snapshot');

    client.ws.send('{not json');
    expect(await client.next((m) => m.type === 'error')).toMatchObject({
      error: { code: 'BAD_MESSAGE', field: 'message' },
    });
    client.ws.send(JSON.stringify({ id: 'seven', command: { type: 'pause' } }));
    const badId = await client.next((m) => m.type === 'error');
    expect(badId).toMatchObject({ error: { code: 'BAD_MESSAGE', field: 'id' } });
    expect((badId.error as { message: string }).message).toMatch(/^id /);
    client.ws.send(JSON.stringify({ id: 3 }));
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      id: 3,
      error: { code: 'BAD_MESSAGE', message: 'command is required', field: 'command' },
    });

    client.ws.send(JSON.stringify({ id: 4, command: { type: 'resume' } }));
    expect(await client.next((m) => m.type === 'reply')).toMatchObject({ id: 4 });
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    client.ws.close();
  });

  it('gives a client that stops reading the latest frame, not a backlog, and counts what it skipped', async () => {
    const client = new Client(wsUrl(server.token));
    await client.opened();
    await client.next((m) => m.type === 'snapshot');
    // Stop reading: the server's unsent bytes grow past its high-water mark.
    const raw = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const spans = Array.from({ length: 2000 }, (_, i) => ({ worker: i % 4, start: i, end: i + 1 }));
    const total = 300; // ≈ 300 × 60 KB: far beyond socket buffers and the 1 MiB high-water mark
    for (let seq = 1; seq <= total; seq++) session.emit({ seq, spans });
    const link = server.links().at(-1)!;
    expect(link.stats.skipped.frames).toBeGreaterThan(0);
    raw.resume();

    const last = await client.next((m) => (m.frame as { seq: number } | undefined)?.seq === total);
    const skipped = last.skipped as { frames: number; spans: number };
    const stats = link.stats;
    expect(stats.sent + stats.skipped.frames).toBe(total);
    expect(skipped.frames).toBe(stats.skipped.frames);
    expect(skipped.spans).toBe(skipped.frames * 2000);
    client.ws.close();
  });
});
