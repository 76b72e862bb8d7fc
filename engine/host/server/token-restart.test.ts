// A server restart and an open tab: a kept token keeps the URL; a new token answers the old tab's
// page and socket with HTTP 401 and a coded error it can show.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { isSchedLabError } from '../../../shared/errors.ts';
import { serveBrowserMode } from './browser-mode.ts';
import { defaultTokenFile, resolveToken } from './token-file.ts';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'schedlab-token-'));
  mkdirSync(join(root, 'dist', 'renderer'), { recursive: true });
  writeFileSync(join(root, 'dist', 'renderer', 'index.html'), '<!doctype html><div id=root>');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const serve = (extra: { token?: string; tokenFile?: string } = {}) =>
  serveBrowserMode({ root, build: false, preset: null, backend: 'sim', ...extra });

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('serve --token-file / --keep-token', () => {
  it('a restart with the same token file keeps the URL; the file is the owner’s only', async () => {
    const file = join(root, 'state', 'schedlab', 'token');
    const first = await serve({ tokenFile: file });
    const url = first.url;
    await first.close();
    expect(readFileSync(file, 'utf8').trim()).toBe(tokenOf(url));
    expect(statSync(file).mode & 0o077).toBe(0);
    const second = await serve({ tokenFile: file });
    try {
      expect(tokenOf(second.url)).toBe(tokenOf(url));
    } finally {
      await second.close();
    }
  });

  it('a given token is the URL’s; a malformed one is refused, naming the field', async () => {
    const token = 'a-token-of-mine_0123456789';
    const app = await serve({ token });
    await app.close();
    expect(tokenOf(app.url)).toBe(token);
    let error: unknown;
    try {
      resolveToken({ token: 'short' });
    } catch (e) {
      error = e;
    }
    expect(isSchedLabError(error) && error.toInfo()).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'token',
    });
  });

  it('a token file that is no regular file or too large is refused at once, unread', () => {
    const fifo = join(root, 'token.fifo');
    execFileSync('mkfifo', [fifo]); // no writer: opening it blocked for good
    const big = join(root, 'big-token');
    writeFileSync(big, '');
    truncateSync(big, 1 << 30); // 1 GB sparse: read whole before it was refused
    const cases: [string, RegExp][] = [
      [big, /is 1073741824 bytes, over the limit of 4096$/],
      [root, /is a directory, not a regular file$/],
      [fifo, /is a FIFO \(named pipe\), not a regular file$/],
      ['/dev/zero', /is a character device, not a regular file$/], // read until memory ran out
    ];
    for (const [file, message] of cases) {
      expect(() => resolveToken({ tokenFile: file }), file).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          field: 'tokenFile',
          message: expect.stringMatching(message),
        }),
      );
    }
  });

  it('the default file is in the user’s state directory', () => {
    expect(defaultTokenFile({ XDG_STATE_HOME: '/x/state' })).toBe('/x/state/schedlab/token');
    expect(defaultTokenFile({})).toMatch(/\.local\/state\/schedlab\/token$/);
  });
});

describe('a tab left open across a restart with a new token', () => {
  it('gets 401 with a coded error on the page and on the socket', async () => {
    const old = await serve();
    const stale = new URL(old.url);
    await old.close();
    const next = await serve({ token: 'the-next-servers-token' });
    try {
      const url = new URL(next.url);
      const page = await fetch(`${url.origin}/?token=${stale.searchParams.get('token')}`);
      expect(page.status).toBe(401);
      expect(page.headers.get('content-type')).toMatch(/application\/json/);
      expect(await page.json()).toMatchObject({
        ok: false,
        error: { code: 'UNAUTHORIZED', field: 'token' },
      });
      const ws = new WebSocket(`ws://${url.host}/ws?token=${stale.searchParams.get('token')}`);
      const answer = await new Promise<{ status: number | undefined; body: string }>((resolve) => {
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        });
        ws.on('error', () => resolve({ status: undefined, body: '' }));
      });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
      // A browser reloading the page reads it in words, not as raw JSON.
      const reload = await fetch(`${url.origin}/?token=${stale.searchParams.get('token')}`, {
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(reload.status).toBe(401);
      expect(reload.headers.get('content-type')).toMatch(/text\/html/);
      const words = await reload.text();
      expect(words).toContain(
        'it was mistyped, or the session it opened has ended (the server restarted or stopped)',
      );
      expect(words).toContain('UNAUTHORIZED');
      expect(words).not.toContain('"ok":false');
      // No token at all is told as such, not as a session that ended.
      const bare = await fetch(`${url.origin}/`);
      expect(bare.status).toBe(401);
      expect(await bare.json()).toMatchObject({
        error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/^this URL has no token/) },
      });
    } finally {
      await next.close();
    }
  });
});
