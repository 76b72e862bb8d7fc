import { afterEach, describe, expect, it } from 'vitest';
import type { KernelName, SplitWork } from '../backend.ts';
import { mulberry32 } from '../../../shared/lib/rng.ts';
import { INJECTED_FAILURE } from '../backend.ts';
import { Driver, fixture, MS } from './fixtures/driver.ts';
import { ThreadsBackend, type ThreadsBackendOptions } from './threads-backend.ts';

let backend: ThreadsBackend | null = null;
async function pool(options: ThreadsBackendOptions = {}): Promise<Driver> {
  backend = new ThreadsBackend({ workers: 2, ...options });
  await backend.ready();
  return new Driver(backend);
}
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const failing = (exportName: string): SplitWork => ({
  kernel: fixture('failing.mjs', exportName),
  totalNanos: 1,
});
const spin: SplitWork = { kernel: 'spin', totalNanos: 2 * MS };
const GIB = 1024 ** 3;

describe('ThreadsBackend survives failing work', { timeout: 60_000 }, () => {
  it('a throwing module fails its split with the reason; the same worker runs the next split', async () => {
    const driver = await pool();
    const end = await driver.quantum(1, failing('throws'), 10 * MS, 0, 0);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/fixture failed on purpose/);
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 0)).outcome).toBe('finished');
  });

  it('an unknown kernel fails its split, naming it; the worker runs the next split', async () => {
    const driver = await pool();
    const bogus = { kernel: 'bogus' as KernelName, totalNanos: 1 * MS };
    const end = await driver.quantum(1, bogus, 10 * MS, 0, 0);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/no kernel named bogus/);
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 0)).outcome).toBe('finished');
  });

  it('an unknown module or export fails its split, naming it', async () => {
    const driver = await pool();
    const missing = { kernel: fixture('failing.mjs', 'nope'), totalNanos: 1 };
    expect((await driver.quantum(1, missing, 10 * MS)).error).toMatch(/no function export nope/);
    const relative = { kernel: { module: './x.mjs' }, totalNanos: 1 };
    expect((await driver.quantum(2, relative, 10 * MS)).error).toMatch(
      /absolute path or a file URL/,
    );
  });

  it('input that cannot be sent to a worker fails its split; the worker stays idle', async () => {
    const driver = await pool();
    const work = { kernel: fixture('count-up.mjs', 'countUp'), input: () => 1, totalNanos: 1 };
    const end = await driver.quantum(1, work, 10 * MS, 0, 0);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/unclonable input/);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
  });

  it('a result that cannot be cloned fails its split, not its worker', async () => {
    const driver = await pool();
    const end = await driver.quantum(1, failing('unclonable'), 10 * MS, 0, 0);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/unclonable result/);
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 0)).outcome).toBe('finished');
  });

  it('a yielded state that cannot be cloned fails its split, and says it was the state', async () => {
    const driver = await pool();
    const end = await driver.quantum(1, failing('unclonableState'), 10 * MS, 0, 0);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/unclonable yielded state/);
  });

  it('a worker killed by process.exit is replaced and the pool keeps serving', async () => {
    const driver = await pool();
    const end = await driver.quantum(1, failing('exits'), 10 * MS, 0, 1);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/worker lost: exit code 7/);
    expect(end.errorCode).toBe('WORKER_LOST');
    expect(end.workerId).toBe(1);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
    const after = await Promise.all([
      driver.quantum(2, spin, 5_000 * MS, 0, 0),
      driver.quantum(3, spin, 5_000 * MS, 0, 1),
    ]);
    expect(after.map((e) => e.outcome)).toEqual(['finished', 'finished']);
  });

  it("an uncaught error from a split's own timer fails that split; its worker serves on", async () => {
    const driver = await pool();
    const end = await driver.quantum(1, failing('throwsLater'), 10 * MS, 0, 1);
    expect(end).toMatchObject({
      outcome: 'failed',
      workerId: 1,
      error: expect.stringMatching(
        /uncaught, from a callback of its own: Error: uncaught in a timer/,
      ),
    });
    expect(end.errorCode).toBeUndefined(); // KERNEL_FAILED: the module threw, the worker lives
    expect(driver.notices).toEqual([]);
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 1)).outcome).toBe('finished');
  });

  it.each([
    ['throws from a timer', 'throwsAfterSuccess', /late error from a finished split \(a\)/],
    ['rejects unhandled', 'rejectsAfterSuccess', /late rejection from a finished split \(a\)/],
  ])(
    "a finished split's module that later %s fails no other split; a notice names it",
    async (_, name, message) => {
      const driver = await pool();
      const late = {
        kernel: fixture('stuck.mjs', name),
        input: { afterMs: 50, tag: 'a' },
        totalNanos: 1,
      };
      const first = await driver.quantum(1, late, 1_000 * MS, 0, 0);
      expect(first).toMatchObject({ outcome: 'finished', result: 'done' });
      // The next split on the same worker awaits well past the 50 ms: the error lands meanwhile.
      const sleeps = { kernel: fixture('stuck.mjs', 'sleeps'), input: { ms: 400 }, totalNanos: 1 };
      const innocent = await driver.quantum(2, sleeps, 5_000 * MS, 0, 0);
      expect(innocent).toMatchObject({ outcome: 'finished', result: 'slept' });
      expect(driver.notices).toEqual([
        expect.stringMatching(
          /^late-error: uncaught error on worker 0 from split 1 \(module .*stuck\.mjs#/,
        ),
      ]);
      expect(driver.notices[0]).toMatch(message);
      expect(driver.notices[0]).toMatch(/no split was failed$/);
      expect(driver.backend.idleWorkers()).toEqual([0, 1]);
    },
  );

  // The peak memory check: without a limit the worker would grow to V8's own heap limit (≈4 GiB
  // on a machine with 16 GiB or more, the whole process's on a small one) before it died.
  it.each([
    ['the default limits', {}],
    ['limits the host sets', { resourceLimits: { maxOldGenerationSizeMb: 48 } }],
  ])(
    'a worker that runs out of memory under %s is replaced; the other serves on',
    async (_, options) => {
      const driver = await pool(options);
      // Filling the heap takes seconds on a loaded machine: the hard limit must not end it first.
      driver.backend.setHardKill(600_000 * MS);
      const dying = driver.quantum(1, failing('exhaustsMemory'), 10 * MS, 0, 0);
      const meanwhile = await driver.quantum(2, spin, 5_000 * MS, 0, 1);
      const end = await dying;
      expect(meanwhile.outcome).toBe('finished');
      expect(end.outcome).toBe('failed');
      expect(end).toMatchObject({
        errorCode: 'WORKER_LOST',
        error: expect.stringMatching(/worker lost: .*memory/i),
      });
      expect(process.resourceUsage().maxRSS * 1024).toBeLessThan(2 * GIB);
      expect((await driver.quantum(3, spin, 5_000 * MS, 0, 0)).outcome).toBe('finished');
    },
  );

  it('failProbability 1 fails every CPU dispatch with the reason, its work lost; 0 never', async () => {
    const driver = await pool();
    const doomed = { ...spin, failProbability: 1 };
    const end = await driver.quantum(1, doomed, 5_000 * MS, 0, 0);
    expect(end).toMatchObject({ outcome: 'failed', error: INJECTED_FAILURE, workNanos: 0 });
    expect(end.ranNanos).toBeGreaterThanOrEqual(2 * MS);
    const counted: SplitWork = {
      kernel: fixture('count-up.mjs', 'countUp'),
      input: { i: 0, target: 10, quanta: 0 },
      totalNanos: 1,
      failProbability: 1,
    };
    const moduleEnd = await driver.quantum(2, counted, 5_000 * MS, 0, 0);
    expect(moduleEnd).toMatchObject({ outcome: 'failed', error: INJECTED_FAILURE });
    expect(moduleEnd.result).toBeUndefined();
    // `sleep` does no CPU work, so nothing fails it (as in the simulator).
    const sleep = { kernel: 'sleep' as const, totalNanos: 1 * MS, failProbability: 1 };
    expect((await driver.quantum(3, sleep, 5_000 * MS, 0, 0)).outcome).toBe('blocked');
    for (let i = 0; i < 10; i++) {
      const safe = await driver.quantum(10 + i, { ...spin, failProbability: 0 }, 5_000 * MS);
      expect(safe.outcome).toBe('finished');
    }
  });

  it('with a seed, failProbability draws the seeded sequence, one draw per dispatch', async () => {
    const driver = await pool({ seed: 42 });
    const draw = mulberry32(42);
    const expected: string[] = [];
    const outcomes: string[] = [];
    for (let i = 0; i < 16; i++) {
      expected.push(draw() < 0.5 ? 'failed' : 'finished');
      const work = { kernel: 'spin' as const, totalNanos: 1 * MS, failProbability: 0.5 };
      outcomes.push((await driver.quantum(i, work, 5_000 * MS, 0, 0)).outcome);
    }
    expect(outcomes).toEqual(expected);
    expect(new Set(outcomes)).toEqual(new Set(['failed', 'finished']));
  });

  it('a worker that cannot even start fails the split it was given; close still ends cleanly', async () => {
    // Limits a worker cannot start under are refused up front, naming the limit...
    expect(
      () => new ThreadsBackend({ workers: 1, resourceLimits: { maxOldGenerationSizeMb: 4 } }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        field: 'resourceLimits.maxOldGenerationSizeMb',
      }),
    );
    // ...so a broken environment is made here by lowering the heap of the next worker it starts.
    const driver = await pool({ workers: 1 });
    (
      driver.backend as unknown as { workers: { limits: { maxOldGenerationSizeMb: number } } }
    ).workers.limits.maxOldGenerationSizeMb = 4;
    driver.backend.setWorkerCount(2);
    const end = await driver.quantum(1, spin, 5_000 * MS, 0, 1);
    expect(end.outcome).toBe('failed');
    expect(end.error).toMatch(/worker lost: .*memory/i);
    await driver.backend.ready();
  });

  it('rejects a dispatch to a busy or unknown worker and any call after close', async () => {
    const driver = await pool();
    const running = driver.quantum(1, { kernel: 'spin', totalNanos: 20 * MS }, 50 * MS, 0, 0);
    expect(() => driver.quantum(2, spin, 5_000 * MS, 0, 0)).toThrow(
      /workerId 0 is not an idle worker/,
    );
    expect(() => driver.quantum(1, spin, 5_000 * MS, 0, 1)).toThrow(/splitId 1 is already running/);
    expect(() => driver.quantum(3, spin, 5_000 * MS, 0, 5)).toThrow(/workerId 5/);
    await running;
    await driver.backend.close();
    expect(() => driver.backend.setWorkerCount(1)).toThrow(/closed/);
  });
});
