import { describe, expect, it } from 'vitest';
import type { KernelName } from '../backend.ts';
import { fixture, MS, ownedDrivers, sharedDriver } from './fixtures/driver.ts';
import { ThreadsBackend } from './threads-backend.ts';

// Tests that leave the pool as they found it share one (starting workers is the slow part);
// tests that resize or close it get their own.
const pool = sharedDriver();

const own = ownedDrivers();

const CPU_KERNELS: KernelName[] = ['hash', 'sort', 'compress', 'matmul', 'spin'];

describe('ThreadsBackend', { timeout: 60_000 }, () => {
  it('runs every CPU kernel until the quantum is used, then yields', async () => {
    const driver = await pool();
    for (const [i, kernel] of CPU_KERNELS.entries()) {
      const end = await driver.quantum(i, { kernel, totalNanos: 10_000 * MS }, 5 * MS);
      expect(end.outcome, kernel).toBe('yielded');
      expect(end.ranNanos, kernel).toBeGreaterThanOrEqual(5 * MS);
      expect(end.workNanos, kernel).toBeGreaterThan(0);
      expect(end.workNanos, kernel).toBeLessThanOrEqual(end.ranNanos);
    }
  });

  it('burns real CPU: process CPU time rises by about the work reported, not far more', async () => {
    const driver = await pool();
    const before = process.cpuUsage();
    const ends = (
      await Promise.all([
        driver.toEnd(1, { kernel: 'spin', totalNanos: 300 * MS }, 50 * MS),
        driver.toEnd(2, { kernel: 'hash', totalNanos: 300 * MS }, 50 * MS),
      ])
    ).flat();
    const used = process.cpuUsage(before);
    const cpuNanos = (used.user + used.system) * 1000;
    const work = ends.reduce((sum, end) => sum + end.workNanos, 0);
    expect(ends.filter((end) => end.outcome === 'finished')).toHaveLength(2);
    expect(work).toBe(600 * MS);
    expect(cpuNanos).toBeGreaterThanOrEqual(0.5 * work);
    // Work is credited at a unit's fastest time, so a unit slowed by a shared core counts less
    // work, not more CPU; what else the process burns meanwhile (main thread, GC) gets a fixed
    // allowance. A kernel that burnt several times what it reports fails here.
    expect(cpuNanos).toBeLessThanOrEqual(3 * work + 300 * MS);
  });

  it('runs a per-call split for one whole call, overrunning a short quantum visibly', async () => {
    const driver = await pool();
    const work = { kernel: 'spin' as const, totalNanos: 100 * MS, perCallNanos: 30 * MS };
    const end = await driver.quantum(1, work, 1 * MS);
    expect(end.outcome).toBe('yielded');
    expect(end.workNanos).toBe(30 * MS);
    expect(end.ranNanos).toBeGreaterThan(1 * MS);
    const blocking = { ...work, blockedNanosPerCall: 5 * MS };
    const blocked = await driver.quantum(2, blocking, 1 * MS);
    expect(blocked.outcome).toBe('blocked');
    expect(blocked.blockedNanos).toBe(5 * MS);
  });

  it('a sleeping split holds no worker: other splits run while it is blocked', async () => {
    const driver = await pool();
    const sleep = { kernel: 'sleep' as const, totalNanos: 2_000 * MS };
    const sleeps = await Promise.all([
      driver.quantum(1, sleep, 10 * MS),
      driver.quantum(2, sleep, 10 * MS),
    ]);
    expect(sleeps.map((end) => end.outcome)).toEqual(['blocked', 'blocked']);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
    const wakeAt = Math.min(...sleeps.map((end) => end.endNanos + (end.blockedNanos ?? 0)));
    const spin = await driver.quantum(3, { kernel: 'spin', totalNanos: 20 * MS }, 5_000 * MS);
    expect(spin.outcome).toBe('finished');
    expect(spin.endNanos).toBeLessThan(wakeAt);
    const rest = await driver.quantum(1, sleep, 10 * MS, 2_000 * MS);
    expect(rest.outcome).toBe('finished');
  });

  it('cancels a running split at its next unit boundary', async () => {
    const driver = await pool();
    const pending = driver.quantum(1, { kernel: 'matmul', totalNanos: 60_000 * MS }, 30_000 * MS);
    await new Promise((resolve) => setImmediate(resolve));
    driver.backend.cancel(1);
    const end = await pending;
    expect(end.outcome).toBe('cancelled');
    expect(end.ranNanos).toBeLessThan(30_000 * MS);
    const next = await driver.quantum(
      2,
      { kernel: 'spin', totalNanos: 1 * MS },
      5_000 * MS,
      0,
      end.workerId,
    );
    expect(next.outcome).toBe('finished');
  });

  it('cancels a user module through shouldYield and its abort signal', async () => {
    const driver = await pool();
    const pending = driver.quantum(
      1,
      { kernel: fixture('count-up.mjs', 'waitFor'), input: 60_000, totalNanos: 1 },
      120_000 * MS,
    );
    await new Promise((resolve) => setImmediate(resolve));
    driver.backend.cancel(1);
    expect((await pending).outcome).toBe('cancelled');
  });

  it('runs a user module across several quanta and reports its result', async () => {
    const driver = await pool();
    const work = {
      kernel: fixture('count-up.mjs', 'countUp'),
      input: { i: 0, target: 20_000, quanta: 0 },
      totalNanos: 1,
    };
    const ends = await driver.toEnd(1, work, 2 * MS);
    const last = ends.at(-1)!;
    expect(last.outcome).toBe('finished');
    expect(ends.length).toBeGreaterThan(1);
    expect(last.result).toEqual({ count: 20_000, quanta: ends.length });
  });

  it('resizes under load: shrinking lets running quanta finish, growing adds workers', async () => {
    const driver = await own();
    const long = { kernel: 'spin' as const, totalNanos: 10_000 * MS };
    const running = [
      driver.quantum(1, long, 150 * MS, 0, 0),
      driver.quantum(2, long, 150 * MS, 0, 1),
    ];
    driver.backend.setWorkerCount(1);
    expect(driver.backend.workerCount).toBe(1);
    expect(driver.backend.idleWorkers()).toEqual([]);
    const ends = await Promise.all(running);
    expect(ends.map((end) => end.outcome)).toEqual(['yielded', 'yielded']);
    expect(driver.backend.idleWorkers()).toEqual([0]);
    driver.backend.setWorkerCount(3);
    expect(driver.backend.idleWorkers()).toEqual([0, 1, 2]);
    const grown = await Promise.all(
      [0, 1, 2].map((id) =>
        driver.quantum(10 + id, { kernel: 'hash', totalNanos: 5 * MS }, 5_000 * MS, 0, id),
      ),
    );
    expect(grown.map((end) => [end.workerId, end.outcome])).toEqual([
      [0, 'finished'],
      [1, 'finished'],
      [2, 'finished'],
    ]);
  });

  it('fires timers at backend time, in order, and never fires a cancelled one', async () => {
    const driver = await pool();
    const clock = driver.backend;
    const fired: string[] = [];
    const at = clock.now() + 20 * MS;
    const cancel = clock.setTimer(at - 10 * MS, () => fired.push('cancelled'));
    clock.setTimer(at - 5 * MS, () => fired.push('early'));
    cancel();
    const firedAt = await new Promise<number>((resolve) =>
      clock.setTimer(at, () => resolve(clock.now())),
    );
    expect(firedAt).toBeGreaterThanOrEqual(at);
    expect(Number.isInteger(firedAt)).toBe(true);
    expect(fired).toEqual(['early']);
  });

  it('rejects a worker count out of range, naming the field', async () => {
    const backend = new ThreadsBackend({ workers: 1 });
    try {
      expect(() => backend.setWorkerCount(0)).toThrow(/workers must be an integer/);
      expect(() => backend.setWorkerCount(1.5)).toThrow(
        expect.objectContaining({ field: 'workers' }),
      );
    } finally {
      await backend.close();
    }
  });
});
