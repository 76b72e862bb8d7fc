// `schedlab attach`: checks the console answers and takes the token before printing its URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '../lib/scheduler.ts';
import { main } from './cli.ts';
import { memoryIo } from './io.ts';

describe('schedlab attach', () => {
  let s: Scheduler;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    s = new Scheduler({ workers: 1 });
    const served = await s.serveConsole({ build: false });
    url = served.url;
    close = served.close;
  });
  afterAll(async () => {
    await close();
    await s.close();
  });

  it("prints a live console's URL", async () => {
    const io = memoryIo();
    const code = await main(['attach', url, '--no-open'], io);
    expect(io.text.err).not.toMatch(/schedlab:/);
    expect(code).toBe(0);
    expect(io.text.out).toContain(url);
  });

  it('a wrong token, no token, or a non-loopback host is one line and exit code 2', async () => {
    const wrong = new URL(url);
    wrong.searchParams.set('token', 'not-the-token');
    const cases: [string, RegExp][] = [
      [wrong.href, /refused the token/],
      [url.replace(/\?.*$/, ''), /no token/],
      ['http://example.com:80/?token=x', /not loopback/],
      ['nonsense', /not a URL/],
    ];
    for (const [arg, message] of cases) {
      const io = memoryIo();
      expect(await main(['attach', arg, '--no-open'], io)).toBe(2);
      expect(io.text.err).toMatch(message);
    }
  });
});
