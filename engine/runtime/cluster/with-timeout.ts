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
