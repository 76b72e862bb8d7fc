// A --redis URL that reaches something other than the Redis it names: said for what it is.
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/redis-server.ts';
import { connectionOptions, parseRedisUrl } from './redis-url.ts';
import { redisReady } from './with-timeout.ts';

/** A loopback server that answers every connection with `reply` (or nothing), then keeps it. */
function serve(reply: string | null): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    if (reply !== null) socket.write(reply);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, port: (server.address() as { port: number }).port });
    }),
  );
}

async function readiness(
  url: string,
  ms: number,
  progress?: (line: string) => void,
): Promise<string> {
  const target = parseRedisUrl(url);
  const client = new Redis({ ...connectionOptions(target), lazyConnect: false });
  client.on('error', () => {});
  try {
    await redisReady(client, target.display, ms, progress);
    return 'ready';
  } catch (e) {
    return (e as Error).message;
  } finally {
    client.disconnect();
  }
}

describe('a --redis URL that reaches no Redis', () => {
  let http: { server: Server; port: number };
  let silent: { server: Server; port: number };
  beforeAll(async () => {
    http = await serve('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    silent = await serve(null);
  });
  afterAll(() => {
    http.server.close();
    silent.server.close();
  });

  it('an HTTP server on the port is named as not Redis, at once, not as ioredis’s own fault', async () => {
    // It read `Unknown RESP type 60 "<". Please report this.`, after the whole bound.
    const message = await readiness(`redis://127.0.0.1:${http.port}`, 20_000);
    expect(message).toMatch(
      new RegExp(
        `^redis://127\\.0\\.0\\.1:${http.port}: what answers there is not Redis \\(.+\\); is the port right\\?$`,
      ),
    );
  });

  it('rediss:// to a server that never answers the TLS hello says what the scheme asks', async () => {
    const message = await readiness(`rediss://127.0.0.1:${silent.port}`, 500);
    expect(message).toMatch(/did not answer within 500 ms/);
    expect(message).toMatch(/rediss:\/\/ speaks TLS, which a Redis without TLS never answers/);
  });
});

describe('a --redis URL whose port nothing listens on', { timeout: 60_000 }, () => {
  it('is said promptly as a refused connection, coded, naming the URL: not after the whole bound', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const message = await readiness(url, 40_000);
    // Before: "did not answer within 30000 ms (last error: connect ECONNREFUSED …)", 30 s later.
    expect(message).toMatch(
      new RegExp(
        `^Redis at ${url.replace(/\./g, '\\.')} refused the connection \\(connect ECONNREFUSED .+\\): nothing listens there; is Redis running, is the port right\\?$`,
      ),
    );
    // Far below the 40 s bound it waited out before (a busy machine is no failure).
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('a wait that goes on says so every few seconds', async () => {
    const silent = await serve(null);
    try {
      const lines: string[] = [];
      const message = await readiness(`redis://127.0.0.1:${silent.port}`, 6_500, (l) =>
        lines.push(l),
      );
      expect(message).toMatch(/did not answer within 6500 ms/);
      // Before: nothing at all until the bound.
      expect(lines[0]).toMatch(
        new RegExp(
          `^still waiting for Redis at redis://127\\.0\\.0\\.1:${silent.port} \\([\\d.]+ s of 6\\.5 s\\)`,
        ),
      );
    } finally {
      silent.server.close();
    }
  });
});
