import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from './fixtures/driver.ts';
import { TaskPool, type TaskPoolOptions } from './task-pool.ts';

const module = new URL('tasks.mjs', FIXTURES).href;
const functions = Object.fromEntries(
  ['inc', 'describe', 'failIfNegative', 'exitWorker', 'later', 'unclonable'].map((name) => [
    name,
    { module, exportName: name },
  ]),
);

let pool: TaskPool | null = null;
function create(options: TaskPoolOptions = {}): TaskPool {
  pool = new TaskPool({ workers: 2, functions, ...options });
  return pool;
}
afterEach(async () => {
  await pool?.close();
  pool = null;
});

// Tests that leave the pool as they found it share one (starting workers is the slow part).
let sharedPool: TaskPool | null = null;
function shared(): TaskPool {
  sharedPool ??= new TaskPool({ workers: 2, functions });
  return sharedPool;
}
afterAll(async () => {
  await sharedPool?.close();
});

describe('TaskPool', { timeout: 60_000 }, () => {
  it('runs many tiny tasks through its rings and answers each with its own result', async () => {
    const tasks = create({ ringSlots: 256 });
    const n = 20_000; // many times the ring: slots are reused
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => tasks.run({ fn: 'inc', arg: i })),
    );
    expect(results.every((r, i) => r === i + 1)).toBe(true);
    expect(tasks.completed).toBe(n);
  });

  it('carries arguments and results that are not numbers', async () => {
    const tasks = shared();
    const args = ['text', { nested: [1, 2n] }, null, undefined, 7n];
    const results = await Promise.all(args.map((arg) => tasks.run({ fn: 'describe', arg })));
    expect(results).toEqual(args.map((value) => ({ type: typeof value, value })));
  });

  it('runs tasks submitted together most urgent first, in arrival order among equals', async () => {
    const tasks = shared();
    const order: string[] = [];
    const specs = [
      ['a', 50],
      ['b', 90],
      ['c', 10],
      ['d', 50],
      ['e', 0],
    ] as const;
    await Promise.all(
      specs.map(([name, priority]) =>
        tasks.run({ fn: 'inc', arg: 1, priority }).then(() => order.push(name)),
      ),
    );
    expect(order).toEqual(['e', 'c', 'a', 'd', 'b']);
  });

  it('awaits asynchronous task functions and built-in kernels', async () => {
    const tasks = shared();
    expect(await tasks.run({ fn: 'later', arg: 21 })).toBe(42);
    expect(await tasks.run({ fn: 'sleep', arg: 1 })).toBeUndefined();
    expect(typeof (await tasks.run({ fn: 'hash', arg: 1024 }))).toBe('number');
  });

  it('rejects a throwing task with its reason and keeps serving', async () => {
    const tasks = shared();
    const failed = tasks.run({ fn: 'failIfNegative', arg: -3 });
    await expect(failed).rejects.toMatchObject({ code: 'KERNEL_FAILED' });
    await expect(failed).rejects.toThrow(/negative input -3/);
    expect(await tasks.run({ fn: 'failIfNegative', arg: 3 })).toBe(3);
  });

  it('rejects only the task whose result cannot be cloned, not its batch', async () => {
    const tasks = shared();
    const runs = [1, -1, 2].map((arg) => tasks.run({ fn: 'unclonable', arg }));
    const failing = tasks.run({ fn: 'failIfNegative', arg: -5 });
    const settled = await Promise.allSettled([...runs, failing]);
    expect(settled.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/unclonable result/);
    expect(String((settled[3] as PromiseRejectedResult).reason)).toMatch(/negative input -5/);
  });

  it('replaces a worker that exits; its task is rejected as lost, later tasks succeed', async () => {
    const tasks = create();
    await expect(tasks.run({ fn: 'exitWorker', arg: 4 })).rejects.toThrow(
      /worker lost: exit code 4/,
    );
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => tasks.run({ fn: 'inc', arg: i })),
    );
    expect(results.at(-1)).toBe(200);
  });

  it('a worker that cannot even start rejects the tasks it was given; close still ends cleanly', async () => {
    const tasks = create({
      resourceLimits: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 },
    });
    await expect(tasks.run({ fn: 'inc', arg: 1 })).rejects.toMatchObject({ code: 'WORKER_LOST' });
  });

  it('rejects unknown functions and bad priorities by field, and everything after close', async () => {
    const tasks = create();
    expect(() => tasks.run({ fn: 'nope' })).toThrow(expect.objectContaining({ field: 'fn' }));
    expect(() => tasks.run({ fn: 'inc', priority: 101 })).toThrow(
      expect.objectContaining({ field: 'priority' }),
    );
    const queued = Array.from({ length: 5 }, () =>
      expect(tasks.run({ fn: 'later', arg: 1 })).rejects.toMatchObject({ code: 'ENGINE_CLOSED' }),
    );
    await tasks.close();
    await Promise.all(queued);
    expect(() => tasks.run({ fn: 'inc', arg: 1 })).toThrow(/closed/);
  });

  it('refuses a task beyond the queue bound (PRIO maxQueued) without losing the queued ones', async () => {
    const tasks = create({ queueConfig: { maxQueued: 3 } });
    const accepted = [1, 2, 3].map((arg) => tasks.run({ fn: 'inc', arg }));
    expect(() => tasks.run({ fn: 'inc', arg: 4 })).toThrow(
      expect.objectContaining({ code: 'QUEUE_FULL' }),
    );
    expect(await Promise.all(accepted)).toEqual([2, 3, 4]);
  });
});
