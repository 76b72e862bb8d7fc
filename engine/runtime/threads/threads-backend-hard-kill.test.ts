import { afterEach, describe, expect, it } from 'vitest';
import type { SplitWork } from '../backend.ts';
import { Driver, fixture, MS } from './fixtures/driver.ts';
import { HARD_KILL_FLOOR_NANOS } from '../backend.ts';
import { allowedNanos, hardLimitFor } from './hard-kill.ts';
import { ThreadsBackend } from './threads-backend.ts';

// The hard limit (hardKillAfterMs) on real worker threads: a user module that never gives its
// worker back is killed, its worker replaced, and the pool keeps serving. Bounds are generous
// (the machine is busy): a replacement worker may take seconds to boot.

let backend: ThreadsBackend | null = null;
async function pool(hardKillMs: number): Promise<Driver> {
  backend = new ThreadsBackend({ workers: 2 });
  await backend.ready();
  backend.setHardKill(hardKillMs * MS);
  return new Driver(backend);
}
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const stuck = (exportName: string): SplitWork => ({
  kernel: fixture('stuck.mjs', exportName),
  totalNanos: 1,
});
const spin: SplitWork = { kernel: 'spin', totalNanos: 2 * MS };
/** The quantum of a run-to-completion dispatch: only a cancel can end it early. */
const FOREVER = 1e15;

/** `p`, or a failure after `ms` (far above what it takes; the failure it guards is far longer). */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('ThreadsBackend hard limit', { timeout: 60_000 }, () => {
  it.each([
    ['loops without yielding', 'loops'],
    ['awaits a promise that never settles', 'neverSettles'],
  ])(
    'a module that %s is killed past the limit; its worker is replaced; the other serves on',
    async (_, name) => {
      const driver = await pool(300);
      const dying = driver.quantum(1, stuck(name), 20 * MS, 0, 1);
      const meanwhile = await driver.quantum(2, spin, 5_000 * MS, 0, 0);
      const end = await dying;
      expect(meanwhile.outcome).toBe('finished');
      expect(end).toMatchObject({
        outcome: 'failed',
        errorCode: 'QUANTUM_OVERRUN_KILLED',
        workerId: 1,
        error: expect.stringMatching(/quantum overran by .* past hardKillAfterMs \(300 ms\)/),
      });
      // Killed only once it overran its 20 ms quantum by more than 300 ms, and not long after
      // (the watchdog looks every 75 ms; 2 s of slack for a loaded machine).
      expect(end.ranNanos).toBeGreaterThan(320 * MS);
      expect(end.ranNanos).toBeLessThan(2_320 * MS);
      expect(driver.notices).toEqual([
        expect.stringMatching(/^hard-kill: worker 1 \(split 1\) killed: its quantum overran/),
      ]);
      expect(driver.backend.idleWorkers()).toEqual([0, 1]);
      const after = await driver.quantum(3, spin, 5_000 * MS, 0, 1);
      expect(after.outcome).toBe('finished');
    },
  );

  // Before: a cancelled call that did not yield held its worker until the hard limit (10 × the
  // quantum, at least 5 s; a library Pool's long calls set it far higher), where Piscina ends the
  // worker at once.
  it('a cancelled module that does not stop is killed 100 ms after its cancel, the limit far above', async () => {
    const driver = await pool(600_000);
    const running = driver.quantum(1, stuck('loops'), FOREVER, 0, 0);
    // Queued on the same worker's dispatch ring behind it: it must come back, not be lost.
    const queued = driver.queued(2, spin, 5_000 * MS, 0);
    await driver.until(driver.backend.now() + 100 * MS);
    const cancelAt = driver.backend.now();
    driver.backend.cancel(1);
    const end = await within(20_000, running);
    expect(end).toMatchObject({
      outcome: 'cancelled',
      errorCode: 'QUANTUM_OVERRUN_KILLED',
      error: expect.stringMatching(/did not stop within 100 ms of its cancel/),
    });
    expect(end.endNanos - cancelAt).toBeGreaterThanOrEqual(100 * MS);
    expect(await queued).toMatchObject({ outcome: 'yielded', ranNanos: 0, workNanos: 0 });
    expect(driver.notices).toEqual([
      expect.stringMatching(/^hard-kill: worker 0 \(split 1\) killed: it did not stop within/),
    ]);
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 0)).outcome).toBe('finished');
  });

  it('a cancelled module is killed at the hard limit when that is below the 100 ms grace', async () => {
    const driver = await pool(40);
    // Run to completion: no overrun is possible, only the cancel can end it.
    const running = driver.quantum(1, stuck('neverSettles'), FOREVER, 0, 1);
    await driver.until(driver.backend.now() + 100 * MS);
    driver.backend.cancel(1);
    expect(await within(20_000, running)).toMatchObject({
      outcome: 'cancelled',
      error: expect.stringMatching(/did not stop within 40 ms of its cancel/),
    });
    expect((await driver.quantum(2, spin, 5_000 * MS, 0, 1)).outcome).toBe('finished');
  });

  it('a cancelled built-in kernel is not killed: it stops by itself, its worker kept', async () => {
    const driver = await pool(600_000);
    // One atomic call of 400 ms: it reads the cancel word only when the call returns.
    const atomic: SplitWork = { kernel: 'spin', totalNanos: 400 * MS, perCallNanos: 400 * MS };
    const running = driver.quantum(1, atomic, FOREVER, 0, 0);
    await driver.until(driver.backend.now() + 50 * MS);
    driver.backend.cancel(1);
    expect((await within(20_000, running)).errorCode).toBeUndefined();
    expect(driver.notices).toEqual([]);
  });

  it('a live change of the limit applies to the quantum already running', async () => {
    const driver = await pool(600_000);
    const running = driver.quantum(1, stuck('neverSettles'), 10 * MS, 0, 0);
    await driver.until(driver.backend.now() + 200 * MS);
    driver.backend.setHardKill(100 * MS);
    const end = await running;
    expect(end.errorCode).toBe('QUANTUM_OVERRUN_KILLED');
    expect(end.ranNanos).toBeLessThan(5_000 * MS);
  });

  it('the limit counts past what a dispatch may run: a module its quantum, a kernel no end', () => {
    const module = { splitId: 1, workerId: 0, quantumNanos: 20 * MS, doneNanos: 0 };
    expect(allowedNanos({ ...module, work: stuck('loops') })).toBe(20 * MS);
    expect(allowedNanos({ ...module, work: { ...spin, perCallNanos: 1e9 } })).toBe(Infinity);
    // Auto (0): ten quanta, at least 5 s; an explicit limit as given.
    expect(hardLimitFor({ ...module, work: spin }, 0)).toBe(HARD_KILL_FLOOR_NANOS);
    expect(hardLimitFor({ ...module, quantumNanos: 1e9, work: spin }, 0)).toBe(10e9);
    expect(hardLimitFor({ ...module, work: spin }, 300 * MS)).toBe(300 * MS);
  });
});
