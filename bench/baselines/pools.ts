/**
 * The baseline pools of the `pool` suite, each with a fixed number of threads running the same
 * task functions (bench/pool-tasks.mjs), one promise per task, behind one small interface so the
 * suite drives them alike: Piscina (the figures' first baseline), Tinypool, poolifier (a
 * `FixedThreadPool`) and workerpool (thread workers). Each uses its defaults otherwise.
 */
import { FixedThreadPool } from 'poolifier';
import { Tinypool } from 'tinypool';
import workerpool from 'workerpool';
import { createPiscina, POOL_TASKS, runPiscina } from './piscina-pool.ts';

export type TaskName = 'inc' | 'factorial';

export interface BaselinePool {
  /** Runs `count` tasks of `name(arg)` at once; resolves with their results. */
  runMany(name: TaskName, arg: unknown, count: number): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface Baseline {
  /** The figure suffix: `pool.<figure>_vs_<name>`. */
  name: 'piscina' | 'tinypool' | 'poolifier' | 'workerpool';
  create(threads: number): BaselinePool;
}

const WORKERPOOL_WORKER = new URL('./workerpool-worker.mjs', import.meta.url);
const POOLIFIER_WORKER = new URL('./poolifier-worker.mjs', import.meta.url);

export const BASELINES: readonly Baseline[] = [
  {
    name: 'piscina',
    create(threads) {
      const p = createPiscina(threads);
      return {
        runMany: (name, arg, count) => runPiscina(p, name, arg, count),
        close: () => p.destroy(),
      };
    },
  },
  {
    name: 'tinypool',
    create(threads) {
      const p = new Tinypool({
        filename: POOL_TASKS.href,
        minThreads: threads,
        maxThreads: threads,
      });
      return {
        runMany: (name, arg, count) => many(count, () => p.run(arg, { name })),
        close: () => p.destroy(),
      };
    },
  },
  {
    name: 'poolifier',
    create(threads) {
      const p = new FixedThreadPool(threads, POOLIFIER_WORKER.pathname);
      return {
        runMany: (name, arg, count) => many(count, () => p.execute(arg, name)),
        close: () => p.destroy(),
      };
    },
  },
  {
    name: 'workerpool',
    create(threads) {
      const p = workerpool.pool(WORKERPOOL_WORKER.pathname, {
        minWorkers: threads,
        maxWorkers: threads,
        workerType: 'thread',
      });
      return {
        runMany: (name, arg, count) => many(count, () => p.exec(name, [arg])),
        close: async () => {
          await p.terminate();
        },
      };
    },
  },
];

function many(count: number, one: () => PromiseLike<unknown>): Promise<unknown[]> {
  const runs = new Array<PromiseLike<unknown>>(count);
  for (let i = 0; i < count; i++) runs[i] = one();
  return Promise.all(runs);
}
