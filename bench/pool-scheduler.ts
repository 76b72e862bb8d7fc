/**
 * The library's path, side by side with four worker pools, 2 workers each: `scheduler.run` (the
 * compiled package, `import { Scheduler } from 'schedlab'`: one `Executor` over the threads
 * backend, each run a one-split job, default policy mlfq) against Piscina, Tinypool, poolifier
 * and workerpool (bench/baselines/pools.ts), all on the same task module (bench/pool-tasks.mjs).
 * - tiny tasks (`x + 1`) and BigInt factorial(1000): tasks/s, higher is better;
 * - boot: construction to the first result, ms, lower is better (median of 3 fresh pools);
 * - memory with many runs queued: heap + external growth while `QUEUED` runs wait, MB, lower is
 *   better (each pool fresh, after a full GC; measured right after submitting, before the first
 *   result, and after a second full GC then, so what is counted is what the queued runs hold, not
 *   the garbage their submission left). The main thread's memory only: a pool that posts every task to its workers at once
 *   (poolifier, without its task queue) holds them in the workers' message queues instead.
 * Tiny tasks and factorial also run on the floor (baselines/backend-floor.ts: the same threads
 * backend with no scheduler on it), the lower bound of any scheduler on this backend.
 * Each figure is reported once per baseline: `pool.scheduler_<figure>_vs_<baseline>`, the same
 * measurement of ours over each baseline's. Counts are modest: this suite runs alongside others.
 */
import { Scheduler } from 'schedlab';
import { createFloor } from './baselines/backend-floor.ts';
import { POOL_TASKS } from './baselines/piscina-pool.ts';
import { BASELINES, type BaselinePool, type TaskName } from './baselines/pools.ts';
import { forceGc } from './gc.ts';
import type { BenchReport } from './report.ts';

const WORKERS = 2;
const TINY = 100_000; // a round; ROUNDS rounds make the 200k
const FACTORIAL = 4_000;
const ROUNDS = 2;
const BOOTS = 3;
const QUEUED = 200_000;
const CLOSE_MS = 60_000;
const TASKS: Record<TaskName, { module: URL; export: TaskName }> = {
  inc: { module: POOL_TASKS, export: 'inc' },
  factorial: { module: POOL_TASKS, export: 'factorial' },
};

/** Ours first, then the baselines in `BASELINES` order. */
type Contender = { name: string; create(): BaselinePool };
const contenders: Contender[] = [
  { name: 'scheduler', create: () => schedulerPool(new Scheduler({ workers: WORKERS })) },
  ...BASELINES.map((b) => ({ name: b.name, create: () => b.create(WORKERS) })),
];

export async function runSchedulerPool(report: BenchReport): Promise<void> {
  const boot: number[] = [];
  for (const c of contenders) boot.push(await bootMs(c));
  addAll(report, 'boot_ms', boot, 'ms');

  // The floor last, after every contender: `pools[contenders.length]`.
  const pools = [...contenders.map((c) => c.create()), createFloor(WORKERS)];
  const names = [...contenders.map((c) => c.name), 'floor'];
  try {
    for (const p of pools) await p.runMany('inc', 1, 5_000);
    const tiny = await rotate(pools, (p) => timed(() => p.runMany('inc', 41, TINY), 42));
    addAll(report, 'tiny', tiny.map(rate(TINY)), 'tasks/s');
    const expected = factorial(1000);
    const cpu = await rotate(pools, (p) =>
      timed(() => p.runMany('factorial', 1000, FACTORIAL), expected),
    );
    addAll(report, 'factorial', cpu.map(rate(FACTORIAL)), 'tasks/s');
  } finally {
    for (let i = 0; i < pools.length; i++) await closed(pools[i]!, names[i]!);
  }

  const memory: number[] = [];
  memory.push(
    await queuedMemory('scheduler', () =>
      schedulerPool(new Scheduler({ workers: WORKERS, maxQueued: QUEUED * 2 })),
    ),
  );
  for (const b of BASELINES) memory.push(await queuedMemory(b.name, () => b.create(WORKERS)));
  addAll(report, 'queued_memory_mb', memory, 'MB');
}

/**
 * `pool.scheduler_<figure>_vs_<baseline>` for each baseline; `values[0]` is ours. With the floor
 * (`values[contenders.length]`): ours over it (the share of the backend's speed the scheduling
 * keeps), and the floor over Piscina (the most any scheduler on this backend could reach).
 */
function addAll(report: BenchReport, figure: string, values: number[], unit: string): void {
  for (let i = 1; i < contenders.length; i++)
    report.add(`pool.scheduler_${figure}_vs_${contenders[i]!.name}`, values[0]!, unit, values[i]!);
  const floor = values[contenders.length];
  if (floor === undefined) return;
  report.add(`pool.scheduler_${figure}_vs_floor`, values[0]!, unit, floor);
  const piscina = contenders.findIndex((c) => c.name === 'piscina');
  report.add(`pool.floor_${figure}_vs_piscina`, floor, unit, values[piscina]!);
}

function schedulerPool(s: Scheduler): BaselinePool {
  return {
    runMany(name, arg, count) {
      const runs = new Array<Promise<unknown>>(count);
      for (let i = 0; i < count; i++) runs[i] = s.run(TASKS[name], arg);
      return Promise.all(runs);
    },
    close: () => s.close(),
  };
}

/** Median over fresh pools of construction → first result (ms). */
async function bootMs(c: Contender): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < BOOTS; i++) {
    const t0 = performance.now();
    const pool = c.create();
    await pool.runMany('inc', 1, 1);
    times.push(performance.now() - t0);
    await pool.close();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function queuedMemory(name: string, make: () => BaselinePool): Promise<number> {
  const pool = make();
  await pool.runMany('inc', 1, 100); // started and warm
  // The earlier figures leave garbage behind: collected now, not while this one is measured.
  forceGc();
  forceGc();
  const before = used();
  const all = pool.runMany('inc', 1, QUEUED);
  // Still before the first result (no turn of the event loop yet): what the queued runs hold.
  forceGc();
  const grown = used() - before;
  await all;
  await closed(pool, name);
  return grown / 2 ** 20;
}

/**
 * Closes one pool. Ours never finishing closing fails the suite, named, instead of hanging. A
 * baseline that never finishes is named and left to the process's exit (bench/index.ts exits
 * after its last line): its figures were measured before, and one of poolifier's `destroy()`s
 * after 200k queued tasks once never resolved — a fault of the baseline, not of the figures.
 */
async function closed(pool: BaselinePool, name: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CLOSE_MS);
  });
  try {
    if ((await Promise.race([pool.close(), limit])) !== 'timeout') return;
  } finally {
    clearTimeout(timer);
  }
  if (name === 'scheduler') throw new Error(`${name} did not close within ${CLOSE_MS / 1000} s`);
  console.log(`  (${name} did not close within ${CLOSE_MS / 1000} s: left to the process's exit)`);
}

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/**
 * `ROUNDS` rounds over every pool, the starting pool rotating each round so drift in machine load
 * hits all alike; total nanoseconds of each pool, in `pools` order.
 */
async function rotate(
  pools: BaselinePool[],
  one: (p: BaselinePool) => Promise<number>,
): Promise<number[]> {
  const total = pools.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < pools.length; k++) {
      const i = (round + k) % pools.length;
      total[i]! += await one(pools[i]!);
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

function rate(perRound: number): (nanos: number) => number {
  return (nanos) => (ROUNDS * perRound) / (nanos / 1e9);
}

function factorial(n: number): bigint {
  let result = 1n;
  for (let i = 2n; i <= BigInt(n); i++) result *= i;
  return result;
}
