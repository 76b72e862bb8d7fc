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

/** Nothing listens at the address: said once refused for this long (ms), not at the first. */
export const REFUSED_MS = 2000;
/** A wait for Redis that goes on is said this often (ms). */
export const PROGRESS_MS = 5000;

/**
 * Resolves once `client` is ready. Rejects `CLUSTER_UNAVAILABLE` at once when Redis refuses the
 * URL's credentials (it answered: a wrong or missing password), when what answers is not Redis,
 * and once every try has been refused for `REFUSED_MS` (nothing listens: a Redis restarting gets
 * that long); else after `ms` naming the last connection error, with a `progress` line every
 * `PROGRESS_MS` meanwhile. All read "did not answer within 30000 ms" before, 30 s later and with
 * nothing said meanwhile, and a node passed the raw WRONGPASS reply on uncoded.
 */
export function redisReady(
  client: { status: string } & NodeJS.EventEmitter,
  display: string,
  ms: number,
  progress?: (line: string) => void,
): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let last = '';
    const started = Date.now();
    /** When the tries began to be refused, each since too; −1 while they are not. */
    let refusedSince = -1;
    const ticker =
      progress === undefined
        ? undefined
        : setInterval(() => {
            const why = last === '' ? '' : `; last error: ${last}`;
            progress(
              `still waiting for Redis at ${display} (${seconds(Date.now() - started)} of ${seconds(ms)}${why})`,
            );
          }, PROGRESS_MS);
    const done = (error: Error | null) => {
      clearTimeout(timer);
      clearInterval(ticker);
      client.off('ready', ready);
      client.off('error', failed);
      if (error === null) resolve();
      else reject(error);
    };
    const ready = () => done(null);
    const failed = (e: Error) => {
      last = e.message;
      const refused = (e as { code?: unknown }).code === 'ECONNREFUSED';
      if (!refused) refusedSince = -1;
      else if (refusedSince < 0) refusedSince = Date.now();
      if (refused && Date.now() - refusedSince >= REFUSED_MS) {
        done(
          unavailable(
            `Redis at ${display} refused the connection (${e.message}): nothing listens there; is Redis running, is the port right?`,
          ),
        );
      } else if (REFUSED_CREDENTIALS.test(e.message)) {
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

/** `ms` as whole seconds, or tenths under a minute when not whole (`6.5 s`). */
function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${Number.isInteger(s) || s >= 60 ? Math.round(s) : s} s`;
}
