import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AnyHostSession } from './host-session.ts';
import { startServer, type RunningServer } from './server.ts';

/** A session whose frames the test emits by hand; commands echo back. */
class HandSession implements AnyHostSession {
  private listeners = new Set<(frame: unknown) => void>();
  /** What a `snapshot` command answers (large, like a real snapshot with its chart history). */
  bigSnapshot = { seq: 0, history: 'x'.repeat(100_000) };
  handleCommand(command: unknown): Promise<unknown> {
    if ((command as { type?: string }).type === 'snapshot')
      return Promise.resolve({ ok: true, snapshot: this.bigSnapshot });
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
  constructor(url: string, options?: WebSocket.ClientOptions) {
    this.ws = new WebSocket(url, options);
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
  writeFileSync(join(dir, 'app.js.map'), '{"sources":["secret.ts"]}');
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

  it('answers an upgrade with the right token to another path 404, saying where the socket is', async () => {
    // It said the token was not this server's.
    const url = `ws://127.0.0.1:${server.port}/ws/?token=${server.token}`;
    const answer = await refusedUpgrade(url);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'path', message: expect.stringContaining('/ws') },
    });
    expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/ws/?token=wrong`)).toBe(401);
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

/** A raw HTTP request, so the test controls the Host and Origin headers a browser would send. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, headers: { host: own(), ...headers } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const own = () => `127.0.0.1:${server.port}`;

/** The status a WebSocket upgrade gets (101 when it opens). */
/** The HTTP answer to an upgrade the server refuses: its status and body. */
function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  const ws = new WebSocket(url);
  return new Promise((resolve) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

function upgradeStatus(url: string, options?: WebSocket.ClientOptions): Promise<number> {
  const ws = new WebSocket(url, options);
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => (ws.close(), resolve(101)));
    ws.on('error', reject);
  });
}

function expectSecurityHeaders(headers: IncomingHttpHeaders): void {
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('browser-mode server: hosts, origins, paths and the token cookie', () => {
  it('answers 403 to a Host that is not its loopback address (DNS rebinding)', async () => {
    const res = await raw(`/?token=${server.token}`, { host: `evil.example:${server.port}` });
    expect(res.status).toBe(403);
    expectSecurityHeaders(res.headers);
    expect(
      (await raw(`/?token=${server.token}`, { host: `localhost:${server.port}` })).status,
    ).toBe(200);
    expect(
      await upgradeStatus(wsUrl(server.token), {
        headers: { host: `evil.example:${server.port}` },
      }),
    ).toBe(403);
  });

  it('accepts a WebSocket only from its own origin, or from a client that sends none', async () => {
    expect(await upgradeStatus(wsUrl(server.token), { origin: 'http://evil.example' })).toBe(403);
    expect(
      await upgradeStatus(wsUrl(server.token), { origin: `http://127.0.0.1:${server.port + 1}` }),
    ).toBe(403);
    expect(await upgradeStatus(wsUrl(server.token), { origin: `http://${own()}` })).toBe(101);
    expect(await upgradeStatus(wsUrl(server.token))).toBe(101);
  });

  it('decodes a path once before the token check: encoded names of the page need the token', async () => {
    for (const path of [
      '/%69ndex.html',
      '/%2findex.html',
      '/assets/..%2findex.html',
      '//index.html',
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(401);
      expectSecurityHeaders(res.headers);
    }
    expect((await raw(`/%69ndex.html?token=${server.token}`)).status).toBe(200);
    // Double encoding is decoded once only: `%2569` is the literal name `%69ndex.html`.
    expect((await raw('/%2569ndex.html')).status).toBe(404);
    const missing = await raw('/no-such-file.js');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
  });

  it('swaps the URL token for an HttpOnly SameSite=Strict cookie that the page and socket accept', async () => {
    const first = await raw(`/?token=${server.token}`);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const pair = cookie.split(';')[0]!;
    expect((await raw('/', { cookie: pair })).status).toBe(200);
    expect((await raw('/', { cookie: `${pair.split('=')[0]}=wrong` })).status).toBe(401);
    expect(await upgradeStatus(`ws://${own()}/ws`, { headers: { cookie: pair } })).toBe(101);
    expect(await upgradeStatus(`ws://${own()}/ws`)).toBe(401);
  });

  it('serves the source map only with the token or its cookie', async () => {
    expect((await raw('/app.js.map')).status).toBe(401);
    expect((await raw(`/app.js.map?token=${server.token}`)).status).toBe(200);
    expect((await raw('/app.js')).status).toBe(200);
  });
});

describe('browser-mode server: bounded in clients', () => {
  it('refuses a socket past its most clients, 503 TOO_MANY_CLIENTS, and takes one again when one leaves', async () => {
    // Before: no limit, and each client may leave its byte budget unread — sixteen clients that
    // stopped reading held 1.1 GB.
    const hand = new HandSession();
    const two = await startServer({ session: hand, staticDir: dir, maxClients: 2 });
    const url = `ws://127.0.0.1:${two.port}/ws?token=${two.token}`;
    try {
      const a = new Client(url);
      const b = new Client(url);
      await Promise.all([a.opened(), b.opened()]);
      const answer = await refusedUpgrade(url);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({
        ok: false,
        error: { code: 'TOO_MANY_CLIENTS', field: 'connection' },
      });
      const gone = new Promise((resolve) => a.ws.on('close', resolve));
      a.ws.close();
      await gone;
      await expect.poll(() => two.links().length).toBe(1);
      const again = new Client(url);
      await again.opened();
      again.ws.close();
      b.ws.close();
    } finally {
      await two.close();
    }
  });
});

describe('browser-mode server: bounded per client', () => {
  let small: RunningServer;
  let hand: HandSession;
  const BUDGET = 1 << 20;
  beforeAll(async () => {
    hand = new HandSession();
    small = await startServer({
      session: hand,
      staticDir: dir,
      maxMessageBytes: 4096,
      maxBufferedBytes: BUDGET,
      highWaterBytes: 64 << 10,
    });
  });
  afterAll(() => small.close());
  const smallWs = () => `ws://127.0.0.1:${small.port}/ws?token=${small.token}`;

  it('answers a message over the limit with MESSAGE_TOO_LARGE and the limit, then closes', async () => {
    const client = new Client(smallWs());
    await client.opened();
    await client.next((m) => m.type === 'snapshot');
    const closed = new Promise<number>((resolve) => client.ws.on('close', (code) => resolve(code)));
    client.ws.send('x'.repeat(10_000));
    const error = await client.next((m) => m.type === 'error');
    expect(error.error).toMatchObject({ code: 'MESSAGE_TOO_LARGE', field: 'message' });
    expect((error.error as { message: string }).message).toContain('4096 bytes');
    expect(await closed).toBe(1009);
  });

  it('a client in another process still writing a message far over the limit gets the reason and 1009', async () => {
    // 17 MB in one send: most of it is still on its way when the server refuses the message. A
    // server that cut the connection at once reset it, and the client lost both (close 1006).
    const script = `
      import WebSocket from 'ws';
      const ws = new WebSocket(process.argv[1]);
      let error = null;
      ws.on('open', () => ws.send('x'.repeat(17 << 20)));
      ws.on('message', (d) => { const m = JSON.parse(String(d)); if (m.type === 'error') error = m.error.code; });
      ws.on('error', () => {});
      ws.on('close', (code) => { console.log(JSON.stringify({ error, code })); process.exit(0); });`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script, smallWs()],
        { cwd: process.cwd(), timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } },
        (e, stdout) => (e === null ? resolve(stdout) : reject(e)),
      );
    });
    expect(JSON.parse(out)).toEqual({ error: 'MESSAGE_TOO_LARGE', code: 1009 });
  });

  it('drops a client that asks for snapshots without reading them; others keep their frames', async () => {
    const slow = new Client(smallWs());
    await slow.opened();
    await slow.next();
    const slowLink = small.links().at(-1)!;
    const fast = new Client(smallWs());
    await fast.opened();
    await fast.next();
    const rawSocket = (slow.ws as unknown as { _socket: { pause(): void } })._socket;
    rawSocket.pause();
    // 500 snapshots of 100 KB = 50 MB asked for, against a 1 MiB budget — ten at a time, each ten
    // answered before the next arrive (a burst past MAX_COMMANDS_IN_FLIGHT is refused instead:
    // client-link.test.ts).
    for (let id = 1; id <= 500; id++) {
      slow.ws.send(JSON.stringify({ id, command: { type: 'snapshot' } }));
      if (id % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await expect.poll(() => slowLink.stats.dropped, { timeout: 20_000 }).toBe(true);
    const reply = JSON.stringify({
      type: 'reply',
      id: 1,
      result: { ok: true, snapshot: hand.bigSnapshot },
    });
    // Held: at most the budget plus the one reply that would have passed it.
    expect(slowLink.stats.peakBufferedBytes).toBeLessThanOrEqual(BUDGET + reply.length);
    for (let seq = 1; seq <= 3; seq++) hand.emit({ seq, spans: [] });
    const got = await fast.next((m) => (m.frame as { seq: number } | undefined)?.seq === 3);
    expect(got.type).toBe('frame');
    await expect.poll(() => small.links().includes(slowLink), { timeout: 5000 }).toBe(false);
    fast.ws.close();
  });
});
