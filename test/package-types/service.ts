// A service's TypeScript against the compiled package's declarations, as a user writes it
// (test/package.test.ts type-checks it with tsc; the repo's own typecheck leaves it out, since
// it needs `npm run build` first). Each name imported is the library's.
import {
  Pool,
  Scheduler,
  SchedLabError,
  type PoolRunOptions,
  type RunOptions,
  type SchedulerOptions,
  type SchedulerStats,
  type TaskContext,
  type TenantStats,
} from 'schedlab';

const options: SchedulerOptions = {
  policy: 'fair',
  workers: 2,
  maxLivePerTenant: 100,
  tenantWeights: { gold: 3 },
};

const perRun: RunOptions = {
  tenant: 'acme',
  class: 'api',
  priority: 10,
  signal: AbortSignal.timeout(1000),
  timeoutMs: 500,
};

// @ts-expect-error: a misspelt option is a type error, not silently another type's field
const misspelt: RunOptions = { tenannt: 'acme' };

/** A task module's function: `ctx` is what the worker hands it. */
export function step(input: number, ctx: TaskContext): number | { yield: number } {
  return ctx.shouldYield() ? { yield: input } : input + 1;
}

/** Moves its result back rather than copying it. */
export function sum(input: Uint8Array, ctx: TaskContext): Uint8Array {
  return ctx.move(input.map((b) => b + 1));
}

export async function serve(): Promise<string> {
  const scheduler = new Scheduler(options);
  const task = { module: new URL('./task.mjs', import.meta.url), export: 'step' };
  const n: number = await scheduler.run<number>(task, 1, perRun);
  const stats: SchedulerStats = scheduler.stats();
  const first: TenantStats | undefined = stats.tenants[0];
  const pool = new Pool({ filename: new URL('./task.mjs', import.meta.url), maxThreads: 2 });
  const named: PoolRunOptions = { name: 'step', tenant: 'acme' };
  await pool.run(1, named);
  const bytes = new Uint8Array(16);
  await pool.run(bytes, { name: 'sum', transferList: [bytes.buffer] });
  try {
    await scheduler.run('spin', { ms: 1 });
  } catch (e) {
    if (e instanceof SchedLabError && e.code === 'QUEUE_FULL') return e.field ?? '';
  }
  await Promise.all([scheduler.close(), pool.destroy()]);
  return `${n} ${first?.name ?? ''} ${stats.runs.rejected} ${String(misspelt)}`;
}
