/**
 * Pools side by side with Piscina, 2 workers each. First the library's path, `scheduler.run`
 * (pool-scheduler.ts: tiny tasks, factorial, boot, memory with runs queued). Then `TaskPool` (priority order, shared-memory rings)
 * vs Piscina on (a) 200k tiny tasks (`x + 1`) and (b) 20k BigInt factorial(1000) tasks. Both pools
 * load the same task module. Higher tasks/s is better; figures are TaskPool / Piscina.
 */
import { TaskPool } from '../engine/runtime/threads/task-pool.ts';
import { runSchedulerPool } from './pool-scheduler.ts';
import { createPiscina, POOL_TASKS, runPiscina } from './baselines/piscina-pool.ts';
import type { BenchReport } from './report.ts';

const WORKERS = 2;
const TINY_TASKS = 200_000;
const FACTORIAL_TASKS = 20_000;
const WARM_UP_TASKS = 20_000;
/**
 * Both sets run in alternating rounds (who goes first alternates too), so drift in machine load
 * hits both pools alike. Tiny tasks: each round TaskPool runs a full 200k batch (about a second)
 * and Piscina a quarter of one, so both are timed over windows of similar length; throughput is
 * total tasks over total time.
 */
const TINY_ROUNDS = 4;
const ROUNDS = 10;

export async function run(report: BenchReport): Promise<void> {
  await runSchedulerPool(report);
  const module = POOL_TASKS.href;
  const pool = new TaskPool({
    workers: WORKERS,
    functions: {
      inc: { module, exportName: 'inc' },
      factorial: { module, exportName: 'factorial' },
    },
  });
  const piscina = createPiscina(WORKERS);
  try {
    // Warm-up, the same for both: workers started, modules loaded, both code paths optimised by
    // the JIT and the heap grown for a large batch of pending promises.
    await runTaskPool(pool, 'inc', 1, WARM_UP_TASKS);
    await runPiscina(piscina, 'inc', 1, WARM_UP_TASKS);
    await runTaskPool(pool, 'factorial', 1000, 100);
    await runPiscina(piscina, 'factorial', 1000, 100);

    const theirBatch = TINY_TASKS / TINY_ROUNDS;
    const tiny = await alternate(
      TINY_ROUNDS,
      () => elapsed(() => runTaskPool(pool, 'inc', 41, TINY_TASKS), 42),
      () => elapsed(() => runPiscina(piscina, 'inc', 41, theirBatch), 42),
    );
    report.add(
      'pool.tiny_tasks_vs_piscina',
      (TINY_ROUNDS * TINY_TASKS) / (tiny.ours / 1e9),
      'tasks/s',
      (TINY_ROUNDS * theirBatch) / (tiny.theirs / 1e9),
    );

    const slice = FACTORIAL_TASKS / ROUNDS;
    const expected = factorial(1000);
    const cpu = await alternate(
      ROUNDS,
      () => elapsed(() => runTaskPool(pool, 'factorial', 1000, slice), expected),
      () => elapsed(() => runPiscina(piscina, 'factorial', 1000, slice), expected),
    );
    report.add(
      'pool.factorial_vs_piscina',
      FACTORIAL_TASKS / (cpu.ours / 1e9),
      'tasks/s',
      FACTORIAL_TASKS / (cpu.theirs / 1e9),
    );
  } finally {
    await Promise.all([pool.close(), piscina.destroy()]);
  }
}

function runTaskPool(pool: TaskPool, fn: string, arg: number, count: number): Promise<unknown[]> {
  const runs = new Array<Promise<unknown>>(count);
  for (let i = 0; i < count; i++) runs[i] = pool.run({ fn, arg, priority: 50 });
  return Promise.all(runs);
}

/** Runs `rounds` rounds of both, alternating who goes first; total nanoseconds of each. */
async function alternate(
  rounds: number,
  ours: () => Promise<number>,
  theirs: () => Promise<number>,
): Promise<{ ours: number; theirs: number }> {
  const total = { ours: 0, theirs: 0 };
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      total.theirs += await theirs();
      total.ours += await ours();
    } else {
      total.ours += await ours();
      total.theirs += await theirs();
    }
  }
  return total;
}

/** Wall time of one batch (ns); checks the last result so a broken pool cannot look fast. */
async function elapsed(go: () => Promise<unknown[]>, expected: unknown): Promise<number> {
  const start = process.hrtime.bigint();
  const results = await go();
  const nanos = Number(process.hrtime.bigint() - start);
  if (results.at(-1) !== expected) throw new Error(`wrong result: ${String(results.at(-1))}`);
  return nanos;
}

function factorial(n: number): bigint {
  let result = 1n;
  for (let i = 2n; i <= BigInt(n); i++) result *= i;
  return result;
}
