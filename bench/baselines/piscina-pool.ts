/**
 * The baseline pool: Piscina with a fixed number of threads, running the same task module as
 * `scheduler.run` (bench/pool-tasks.mjs), one `run()` promise per task.
 */
import { Piscina } from 'piscina';

export const POOL_TASKS = new URL('../pool-tasks.mjs', import.meta.url);

export function createPiscina(threads: number): Piscina {
  return new Piscina({ filename: POOL_TASKS.href, minThreads: threads, maxThreads: threads });
}

/** Runs `count` tasks of `name(arg)` at once; resolves with their results. */
export function runPiscina(
  pool: Piscina,
  name: string,
  arg: unknown,
  count: number,
): Promise<unknown[]> {
  const runs = new Array<Promise<unknown>>(count);
  for (let i = 0; i < count; i++) runs[i] = pool.run(arg, { name });
  return Promise.all(runs);
}
