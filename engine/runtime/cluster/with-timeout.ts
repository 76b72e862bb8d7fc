/** Waiting on Redis with a bound: the cluster's connections wait out an outage by design. */
import { SchedLabError } from '../../../shared/errors.ts';

export function unavailable(message: string): SchedLabError {
  return new SchedLabError('CLUSTER_UNAVAILABLE', message, 'redis');
}

/** `p`, or `error()` once `ms` pass first (`p` is left to settle on its own). */
export async function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(error()), ms)),
  );
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a Redis error says about credentials: retrying with the same ones cannot help. */
const REFUSED_CREDENTIALS = /^(WRONGPASS|NOAUTH|ERR AUTH|ERR invalid password)/;
/**
 * What the client says when the server at the port does not speak Redis's protocol (an HTTP
 * server answers `<` or `H`): retrying cannot help either. It read "Unknown RESP type 60 "<".
 * Please report this." — ioredis's words, as if the fault were its own.
 */
const NOT_REDIS = /^(Unknown RESP type|Protocol error)/;

/**
 * Resolves once `client` is ready. Rejects `CLUSTER_UNAVAILABLE` at once when Redis refuses the
 * URL's credentials (it answered: a wrong or missing password), else after `ms` naming the last
 * connection error (a refused port). Both read "did not answer within 30000 ms" before, 30 s
 * later, and a node passed the raw WRONGPASS reply on uncoded.
 */
export function redisReady(
  client: { status: string } & NodeJS.EventEmitter,
  display: string,
  ms: number,
): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let last = '';
    const done = (error: Error | null) => {
      clearTimeout(timer);
      client.off('ready', ready);
      client.off('error', failed);
      if (error === null) resolve();
      else reject(error);
    };
    const ready = () => done(null);
    const failed = (e: Error) => {
      last = e.message;
      if (REFUSED_CREDENTIALS.test(e.message)) {
        done(unavailable(`Redis at ${display} refused the URL's credentials: ${e.message}`));
      } else if (NOT_REDIS.test(e.message)) {
        done(
          unavailable(
            `${display}: what answers there is not Redis (${e.message}); is the port right?`,
          ),
        );
      }
    };
    const timer = setTimeout(() => {
      const why = last === '' ? '' : ` (last error: ${last})`;
      // A TLS hello to a Redis without TLS gets no answer at all: say what the scheme asks.
      const tls = display.startsWith('rediss:')
        ? '; rediss:// speaks TLS, which a Redis without TLS never answers (redis:// does not)'
        : '';
      done(unavailable(`Redis at ${display} did not answer within ${ms} ms${why}${tls}`));
    }, ms);
    client.on('ready', ready);
    client.on('error', failed);
  });
}
