// scheduler.serveConsole: the app's protocol over WebSocket for a library scheduler, read-only
// unless allowControl, token required, on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_PATH } from '../../shared/transport.ts';
import { Scheduler } from './scheduler.ts';

const TASKS = new URL('./fixtures/tasks.mjs', import.meta.url);

/** A client that keeps what it receives and waits for a matching message. */
class Client {
  readonly ws: WebSocket;
  private readonly inbox: Record<string, unknown>[] = [];
  private waiter: (() => void) | undefined;
  private nextId = 1;
  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer) => {
      this.inbox.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      this.waiter?.();
    });
  }
  async next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const i = this.inbox.findIndex(match);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
  /** Sends a command; resolves with its reply's result. */
  async command(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    if (this.ws.readyState === WebSocket.CONNECTING)
      await new Promise((r) => this.ws.once('open', r));
    this.ws.send(JSON.stringify({ id, command }));
    const reply = await this.next((m) => m['type'] === 'reply' && m['id'] === id);
    return reply['result'] as Record<string, unknown>;
  }
}

function socketUrl(pageUrl: string, token: string | null): string {
  const page = new URL(pageUrl);
  const ws = new URL(WS_PATH, `ws://${page.host}`);
  if (token !== null) ws.searchParams.set('token', token);
  return ws.href;
}

describe('Scheduler.serveConsole', () => {
  let s: Scheduler;
  beforeAll(() => {
    s = new Scheduler({ workers: 1, policy: 'fair' });
  });
  afterAll(() => s.close());

  it('is read-only by default: snapshots and frames flow, commands are refused READ_ONLY', async () => {
    const served = await s.serveConsole({ build: false });
    try {
      expect(new URL(served.url).hostname).toBe('127.0.0.1');
      const client = new Client(socketUrl(served.url, served.token));
      const snapshot = await client.next((m) => m['type'] === 'snapshot');
      // The app learns it from the snapshot and disables its controls.
      expect(snapshot['snapshot']).toMatchObject({ type: 'snapshot', readOnly: true });
      expect(await s.run({ module: TASKS }, 4, { tenant: 'acme' })).toBe(8);
      const frame = await client.next(
        (m) =>
          m['type'] === 'frame' &&
          (m['frame'] as { counters: { succeeded: number } }).counters.succeeded >= 1,
      );
      expect(frame).toBeDefined();
      const refused = await client.command({ type: 'configure', config: { policy: 'fifo' } });
      expect(refused).toMatchObject({ ok: false, error: { code: 'READ_ONLY', field: 'type' } });
      expect(s.config.policy).toBe('fair');
      expect(await client.command({ type: 'snapshot' })).toMatchObject({
        ok: true,
        snapshot: { readOnly: true },
      });
      // Searching and following a job only read: a read-only console answers them.
      const found = await client.command({ type: 'findJobs', query: 'tenant:acme' });
      expect(found).toMatchObject({ ok: true, matched: 1 });
      const jobId = (found['jobs'] as { id: number }[])[0]!.id;
      expect(await client.command({ type: 'jobDetail', jobId })).toMatchObject({
        ok: true,
        job: { id: jobId, state: 'succeeded', tenant: 'acme' },
      });
      // The tenant weights may be read, not set.
      s.setTenantWeights({ acme: 2 });
      expect(await client.command({ type: 'tenantWeights' })).toMatchObject({
        ok: true,
        weights: { acme: 2 },
      });
      const weights = await client.command({ type: 'setTenantWeights', weights: { acme: 9 } });
      expect(weights).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      expect(s.tenantWeights).toEqual({ acme: 2 });
      s.setTenantWeights({});
      // A command that is not one is refused for what it is, not as a change (it read READ_ONLY,
      // naming `undefined`).
      expect(await client.command({ type: 'bogus' })).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_COMMAND' },
      });
      expect(await client.command({ kind: 'snapshot' })).toMatchObject({
        ok: false,
        error: { code: 'BAD_MESSAGE' },
      });
      client.ws.close();
    } finally {
      await served.close();
    }
  });

  it('a read-only console refuses a message past 64 KiB unparsed; with allowControl it is read', async () => {
    // Its commands are a few hundred bytes. At the server's 16 MiB cap, one message of JSON held
    // the service's event loop for seconds before it was refused READ_ONLY.
    const big = JSON.stringify({
      id: 1,
      command: { type: 'findJobs', query: 'x'.repeat(100_000) },
    });
    const replies = async (allowControl: boolean) => {
      const served = await s.serveConsole({ build: false, allowControl });
      try {
        const client = new Client(socketUrl(served.url, served.token));
        await client.next((m) => m['type'] === 'snapshot');
        client.ws.send(big);
        const m = await client.next((x) => x['type'] === 'error' || x['type'] === 'reply');
        client.ws.close();
        return m;
      } finally {
        await served.close();
      }
    };
    const readOnly = await replies(false);
    expect(readOnly).toMatchObject({ type: 'error', error: { code: 'MESSAGE_TOO_LARGE' } });
    expect((readOnly['error'] as { message: string }).message).toContain('65536 bytes');
    // With control a workload document may be large: this one is read, and refused for its query.
    const control = await replies(true);
    expect(control).toMatchObject({ type: 'reply', result: { ok: false } });
    expect(control).not.toMatchObject({ error: { code: 'MESSAGE_TOO_LARGE' } });
  });

  it('refuses a socket without the token', async () => {
    const served = await s.serveConsole({ build: false });
    try {
      const ws = new WebSocket(socketUrl(served.url, null));
      const status = await new Promise<number>((resolve) =>
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      );
      expect(status).toBe(401);
    } finally {
      await served.close();
    }
  });

  it('with allowControl, a command changes the scheduler', async () => {
    const token = 'a-token-of-sixteen-chars';
    const served = await s.serveConsole({ build: false, allowControl: true, token });
    try {
      expect(served.token).toBe(token);
      const client = new Client(socketUrl(served.url, token));
      const result = await client.command({ type: 'configure', config: { policy: 'mlfq' } });
      expect(result).toMatchObject({ ok: true });
      expect(s.config.policy).toBe('mlfq');
      const snapshot = await client.command({ type: 'snapshot' });
      expect((snapshot['snapshot'] as { readOnly?: boolean }).readOnly).toBeUndefined();
      // The service's tenant weights, set from the console.
      const weights = await client.command({ type: 'setTenantWeights', weights: { acme: 4 } });
      expect(weights).toMatchObject({ ok: true, weights: { acme: 4 } });
      expect(s.tenantWeights).toEqual({ acme: 4 });
      s.setTenantWeights({});
      client.ws.close();
    } finally {
      await served.close();
    }
  });

  it('a short token, or one its printed URL could not carry, is a coded error naming the field', async () => {
    await expect(s.serveConsole({ build: false, token: 'short' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'token',
    });
    // Before: accepted, and the URL it printed (the token pasted in as is) was refused 401.
    for (const token of ['aaaaaaaaaaaaaaaa&x=1', 'aaaaaaaaaaaaaaaa#frag', 'aaaaaaaaaaaaaaaa%41'])
      await expect(s.serveConsole({ build: false, token })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'token',
      });
  });

  it('one console at a time, counting one still starting; close() waits for it and closes it', async () => {
    // Before: two calls in one turn both served, and one started just before close() was left
    // listening after close() resolved (the process could not exit).
    const [first, second] = await Promise.allSettled([
      s.serveConsole({ build: false }),
      s.serveConsole({ build: false }),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled' });
    expect(second).toMatchObject({
      status: 'rejected',
      reason: { code: 'INVALID_ARGUMENT', field: 'serveConsole' },
    });
    if (first.status === 'fulfilled') await first.value.close();
    const other = new Scheduler({ workers: 1 });
    // Its rejection is taken at once: it comes while close() is awaited.
    const serving = other.serveConsole({ build: false }).then(
      () => null,
      (e: unknown) => e,
    );
    await other.close();
    expect(await serving).toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});
