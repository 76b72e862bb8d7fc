/**
 * The library's path, side by side with Piscina, 2 workers each: `scheduler.run` (the compiled
 * package, `import { Scheduler } from 'schedlab'`: one `Executor` over the threads backend, each
 * run a one-split job, default policy mlfq) against `piscina.run`, on the same task module.
 * - tiny tasks (`x + 1`) and BigInt factorial(1000): tasks/s, higher is better;
 * - boot: construction to the first result, ms, lower is better (median of 3 fresh pools);
 * - memory with many runs queued: heap + external growth while `QUEUED` runs wait, MB, lower is
 *   better (each pool fresh; measured right after submitting, before the first result).
 * Counts are modest: the threads path does ~30k runs/s here, and this suite runs alongside others.
 */
import { Scheduler } from 'schedlab';
import { createPiscina, POOL_TASKS, runPiscina } from './baselines/piscina-pool.ts';
import type { BenchReport } from './report.ts';

const WORKERS = 2;
const TINY = 40_000;
const FACTORIAL = 4_000;
const ROUNDS = 2;
const BOOTS = 3;
const QUEUED = 50_000;
const inc = { module: POOL_TASKS, export: 'inc' };
const factorialTask = { module: POOL_TASKS, export: 'factorial' };

export async function runSchedulerPool(report: BenchReport): Promise<void> {
  report.add('pool.scheduler_boot_ms_vs_piscina', await bootMs(ours), 'ms', await bootMs(theirs));
  const s = new Scheduler({ workers: WORKERS });
  const p = createPiscina(WORKERS);
  try {
    await runOurs(s, inc, 1, 5_000);
    await runPiscina(p, 'inc', 1, 5_000);
    const tiny = await alternate(
      () => timed(() => runOurs(s, inc, 41, TINY), 42),
      () => timed(() => runPiscina(p, 'inc', 41, TINY), 42),
    );
    report.add(
      'pool.scheduler_tiny_vs_piscina',
      rate(TINY, tiny.ours),
      'tasks/s',
      rate(TINY, tiny.theirs),
    );
    const expected = factorial(1000);
    const cpu = await alternate(
      () => timed(() => runOurs(s, factorialTask, 1000, FACTORIAL), expected),
      () => timed(() => runPiscina(p, 'factorial', 1000, FACTORIAL), expected),
    );
    report.add(
      'pool.scheduler_factorial_vs_piscina',
      rate(FACTORIAL, cpu.ours),
      'tasks/s',
      rate(FACTORIAL, cpu.theirs),
    );
  } finally {
    await Promise.all([s.close(), p.destroy()]);
  }
  const memOurs = await queuedMemory(
    () => new Scheduler({ workers: WORKERS, maxQueued: QUEUED * 2 }),
    (pool, n) => runOurs(pool, inc, 1, n),
    (pool) => pool.close(),
  );
  const memTheirs = await queuedMemory(
    () => createPiscina(WORKERS),
    (pool, n) => runPiscina(pool, 'inc', 1, n),
    (pool) => pool.destroy(),
  );
  report.add('pool.scheduler_queued_memory_mb_vs_piscina', memOurs, 'MB', memTheirs);
}

function runOurs(s: Scheduler, task: typeof inc, arg: number, count: number): Promise<unknown[]> {
  const runs = new Array<Promise<unknown>>(count);
  for (let i = 0; i < count; i++) runs[i] = s.run(task, arg);
  return Promise.all(runs);
}

async function ours(): Promise<() => Promise<void>> {
  const s = new Scheduler({ workers: WORKERS });
  await s.run(inc, 1);
  return () => s.close();
}

async function theirs(): Promise<() => Promise<void>> {
  const p = createPiscina(WORKERS);
  await p.run(1, { name: 'inc' });
  return () => p.destroy();
}

/** Median over fresh pools of construction → first result (ms). */
async function bootMs(start: () => Promise<() => Promise<void>>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < BOOTS; i++) {
    const t0 = performance.now();
    const close = await start();
    times.push(performance.now() - t0);
    await close();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function queuedMemory<P>(
  make: () => P,
  submit: (pool: P, n: number) => Promise<unknown[]>,
  close: (pool: P) => Promise<void>,
): Promise<number> {
  const pool = make();
  await submit(pool, 100); // started and warm
  globalThis.gc?.();
  const before = used();
  const all = submit(pool, QUEUED);
  const grown = used() - before;
  await all;
  await close(pool);
  return grown / 2 ** 20;
}

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

async function alternate(
  o: () => Promise<number>,
  t: () => Promise<number>,
): Promise<{ ours: number; theirs: number }> {
  const total = { ours: 0, theirs: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      total.theirs += await t();
      total.ours += await o();
    } else {
      total.ours += await o();
      total.theirs += await t();
    }
  }
  return total;
}

async function timed(go: () => Promise<unknown[]>, expected: unknown): Promise<number> {
  const start = process.hrtime.bigint();
  const results = await go();
  const nanos = Number(process.hrtime.bigint() - start);
  if (results.at(-1) !== expected) throw new Error(`wrong result: ${String(results.at(-1))}`);
  return nanos;
}

function rate(perRound: number, nanos: number): number {
  return (ROUNDS * perRound) / (nanos / 1e9);
}

function factorial(n: number): bigint {
  let result = 1n;
  for (let i = 2n; i <= BigInt(n); i++) result *= i;
  return result;
}
