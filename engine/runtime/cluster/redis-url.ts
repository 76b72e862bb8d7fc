/**
 * `--redis URL` checked and turned into connection options. Security (docs/design.md §6 keeps
 * servers on loopback): a Redis reachable from other machines lets anyone who reaches it run
 * work on every node, so a URL must name a loopback host or carry a password
 * (`redis://:pass@host:port`); `rediss://` adds TLS.
 */
import { isIP } from 'node:net';
import { SchedLabError } from '../../../shared/errors.ts';

export interface RedisTarget {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db: number;
  readonly tls: boolean;
  /** The URL with its password masked, for messages and logs. */
  readonly display: string;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function bad(url: string, why: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `--redis ${url}: ${why}`, 'redis');
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * `url` with its password as `***`. Built from the parsed URL: `URL.password` is percent-encoded,
 * so replacing its text in the URL as written missed a password with `@` or a space in it, and
 * every log line and error printed it. A URL that does not parse has everything between the
 * scheme's user and the last `@` masked.
 */
function masked(url: string, parsed?: URL): string {
  if (parsed === undefined) return url.replace(/^([^:/]*:\/\/[^:/@]*):[^]*@/, '$1:***@');
  if (parsed.password === '') return url;
  const copy = new URL(parsed.href);
  copy.password = '***';
  return copy.href;
}

export function parseRedisUrl(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // A port past 65535 fails the URL parser: say that rather than "not a URL".
    const port = /^[a-z]+:\/\/(?:[^/@]*@)?(?:\[[^\]]*\]|[^/:]*):(\d+)(?:\/|$)/i.exec(url)?.[1];
    if (port !== undefined && Number(port) > 65_535) {
      throw bad(masked(url), `port must be 1 to 65535, got ${port}`);
    }
    throw bad(masked(url), 'not a URL (expected redis://[:password@]host[:port][/db])');
  }
  const shown = masked(url, parsed);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw bad(shown, `scheme must be redis: or rediss:, got ${parsed.protocol}`);
  }
  const host = parsed.hostname;
  if (host === '') throw bad(shown, 'no host');
  const password = decodeURIComponent(parsed.password);
  if (!isLoopback(host) && password === '') {
    throw bad(
      shown,
      `a Redis on ${host} (not loopback) needs a password in the URL: redis://:PASSWORD@${host}:${parsed.port || 6379}`,
    );
  }
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  // Port 0 is no server's: it was taken, and every connection waited out its bound to be refused.
  if (port === 0) throw bad(shown, 'port must be 1 to 65535, got 0');
  const dbText = parsed.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15) {
    throw bad(shown, `database must be an integer from 0 to 15, got ${dbText}`);
  }
  const username = decodeURIComponent(parsed.username);
  return {
    host: host.replace(/^\[(.*)\]$/, '$1'),
    port,
    ...(username === '' ? {} : { username }),
    ...(password === '' ? {} : { password }),
    db,
    tls: parsed.protocol === 'rediss:',
    display: shown,
  };
}

/** ioredis / BullMQ connection options for `target` (commands wait out an outage: BullMQ asks). */
export function connectionOptions(target: RedisTarget): Record<string, unknown> {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // Reconnect every 250 ms at most 1 s apart: an outage ends as soon as Redis is back.
    retryStrategy: (times: number) => Math.min(1000, 250 * times),
  };
}
