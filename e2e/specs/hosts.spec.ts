// The hosts themselves: the page loads with its token and receives the protocol; browser mode
// refuses a wrong token and answers a malformed message with a coded error on a live connection.
import NodeWebSocket from 'ws';
import { expect, test } from '../fixtures/app.ts';

test('the app loads and the host streams a snapshot, then frames', async ({
  page,
  appUrl,
  host,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(appUrl);
  await expect(page.locator('#root')).not.toBeEmpty();
  if (host === 'browser') {
    // Same token, a second socket from the page itself: snapshot first, then live frames.
    const types = await page.evaluate(async () => {
      const token = new URL(location.href).searchParams.get('token') ?? '';
      const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
      const seen: string[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.onerror = () => reject(new Error('socket failed'));
        ws.onmessage = (m) => {
          seen.push((JSON.parse(String(m.data)) as { type: string }).type);
          if (seen.filter((t) => t === 'frame').length >= 2) resolve();
        };
      });
      ws.close();
      return seen;
    });
    expect(types[0]).toBe('snapshot');
    expect(types.slice(1)).toEqual(['frame', 'frame']);
  }
  expect(errors).toEqual([]);
});

test.describe('browser mode only', () => {
  test.beforeEach(({ host }) => {
    // The Electron host has no HTTP server to guard; its IPC checks are unit-tested.
    test.skip(
      host !== 'browser',
      'the HTTP token and the WebSocket exist only in browser mode; Electron uses IPC and a port',
    );
  });

  test('a wrong or missing token gets HTTP 401, on the page and on the WebSocket', async ({
    request,
    appUrl,
  }) => {
    const url = new URL(appUrl);
    expect((await request.get(`${url.origin}/?token=not-the-token`)).status()).toBe(401);
    expect((await request.get(`${url.origin}/`)).status()).toBe(401);
    const socket = new NodeWebSocket(`ws://${url.host}/ws?token=wrong`);
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(401);
  });

  test('a malformed message gets a coded error naming the field; the connection stays open', async ({
    page,
    appUrl,
  }) => {
    await page.goto(appUrl);
    const outcome = await page.evaluate(async () => {
      const token = new URL(location.href).searchParams.get('token') ?? '';
      const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
      const inbox: Record<string, unknown>[] = [];
      let wake = () => {};
      ws.onmessage = (m) => {
        inbox.push(JSON.parse(String(m.data)) as Record<string, unknown>);
        wake();
      };
      const next = async (type: string) => {
        for (;;) {
          const i = inbox.findIndex((m) => m.type === type);
          if (i >= 0) return inbox.splice(i, 1)[0];
          await new Promise<void>((resolve) => (wake = resolve));
        }
      };
      await new Promise((resolve) => (ws.onopen = resolve));
      ws.send('this is not JSON');
      const notJson = await next('error');
      ws.send(JSON.stringify({ id: -1, command: { type: 'pause' } }));
      const badId = await next('error');
      ws.send(JSON.stringify({ id: 5, command: { type: 'snapshot' } }));
      const reply = await next('reply');
      const open = ws.readyState === WebSocket.OPEN;
      ws.close();
      return { notJson, badId, reply, open };
    });
    expect(outcome.notJson).toMatchObject({ error: { code: 'BAD_MESSAGE', field: 'message' } });
    expect(outcome.badId).toMatchObject({ error: { code: 'BAD_MESSAGE', field: 'id' } });
    expect(outcome.reply).toMatchObject({ type: 'reply', id: 5, result: { ok: true } });
    expect(outcome.open).toBe(true);
  });

  test('the token leaves the address bar for an HttpOnly cookie; a reload still connects', async ({
    page,
    appUrl,
  }) => {
    await page.goto(appUrl);
    await expect(page.locator('#root')).not.toBeEmpty();
    await expect.poll(() => new URL(page.url()).searchParams.has('token')).toBe(false);
    // HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('schedlab-token');
    await page.reload();
    const types = await page.evaluate(async () => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      return await new Promise<string>((resolve, reject) => {
        ws.onerror = () => reject(new Error('socket failed'));
        ws.onmessage = (m) => {
          ws.close();
          resolve((JSON.parse(String(m.data)) as { type: string }).type);
        };
      });
    });
    expect(types).toBe('snapshot');
  });

  test('another origin or host gets 403, even with the token', async ({ request, appUrl }) => {
    const url = new URL(appUrl);
    const token = url.searchParams.get('token') ?? '';
    const status = (options: NodeWebSocket.ClientOptions) =>
      new Promise<number | undefined>((resolve) => {
        const socket = new NodeWebSocket(`ws://${url.host}/ws?token=${token}`, options);
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
        socket.on('open', () => (socket.close(), resolve(101)));
        socket.on('error', () => resolve(undefined));
      });
    expect(await status({ origin: 'http://evil.example' })).toBe(403);
    expect(await status({ headers: { host: `rebound.example:${url.port}` } })).toBe(403);
    expect((await request.get(`${url.origin}/%69ndex.html`)).status()).toBe(401);
  });
});
