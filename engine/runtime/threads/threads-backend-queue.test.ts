import { describe, expect, it } from 'vitest';
import type { SplitWork } from '../backend.ts';
import { fixture, MS, ownedDrivers } from './fixtures/driver.ts';
import { MAX_QUEUED } from './control.ts';

// A dispatch queued behind a running quantum (`enqueue`): it starts when that quantum ends, can be
// taken back until then, and every way a worker's quanta end still reports each split exactly once.
const pool = ownedDrivers();

const spin = (ms: number): SplitWork => ({ kernel: 'spin', totalNanos: ms * MS });
const FOREVER = 600_000 * MS;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ThreadsBackend queued dispatches', { timeout: 60_000 }, () => {
  it('a queued dispatch runs on its worker after the running quantum ends, each ends once', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(20), FOREVER, 0, 0);
    expect(driver.backend.queueableWorkers()).toEqual([0]);
    const second = driver.queued(2, spin(5), FOREVER, 0);
    expect(driver.backend.queueableWorkers()).toEqual([]);
    expect(driver.backend.idleWorkers()).toEqual([1]);
    const [a, b] = await Promise.all([first, second]);
    expect([a.outcome, b.outcome]).toEqual(['finished', 'finished']);
    expect(b.workerId).toBe(0);
    expect(b.startNanos).toBeGreaterThanOrEqual(a.endNanos);
    expect(b.workNanos).toBe(5 * MS);
    expect(driver.ends.map((end) => end.splitId)).toEqual([1, 2]);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
  });

  it('revoke takes back a queued dispatch that has not started: it never runs', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(30), FOREVER, 0, 0);
    void driver.queued(2, spin(1), FOREVER, 0);
    expect(driver.backend.revoke(2)).toBe(true);
    expect(driver.backend.revoke(2)).toBe(false);
    expect(driver.backend.queueableWorkers()).toEqual([0]);
    // Queued again on the same worker: the stale message of the revoked one must not run it.
    const again = driver.queued(2, spin(2), FOREVER, 0);
    expect((await first).outcome).toBe('finished');
    const end = await again;
    expect(end).toMatchObject({ outcome: 'finished', workNanos: 2 * MS, workerId: 0 });
    await driver.quantum(3, spin(1), FOREVER, 0, 0);
    expect(driver.ends.map((e) => e.splitId)).toEqual([1, 2, 3]);
  });

  it('revoke fails once the queued dispatch has started', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(1), FOREVER, 0, 0);
    const second = driver.queued(2, spin(20), FOREVER, 0);
    await first;
    expect(driver.backend.revoke(2)).toBe(false);
    expect((await second).outcome).toBe('finished');
  });

  it('cancelling a queued dispatch ends it cancelled with no work; the running one goes on', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(30), FOREVER, 0, 0);
    const second = driver.queued(2, spin(5), FOREVER, 0);
    driver.backend.cancel(2);
    const cancelled = await second;
    expect(cancelled).toMatchObject({ outcome: 'cancelled', workNanos: 0, ranNanos: 0 });
    expect((await first).outcome).toBe('finished');
    expect(driver.ends.map((e) => [e.splitId, e.outcome])).toEqual([
      [2, 'cancelled'],
      [1, 'finished'],
    ]);
  });

  it.each([
    ['running first', [1, 2]],
    ['queued first', [2, 1]],
  ])('cancelling both the running and the queued dispatch (%s) stops both', async (_, order) => {
    const driver = await pool();
    const first = driver.quantum(1, { kernel: 'matmul', totalNanos: FOREVER }, FOREVER, 0, 0);
    const second = driver.queued(2, spin(60_000), FOREVER, 0);
    await tick();
    for (const splitId of order) driver.backend.cancel(splitId);
    const [a, b] = await Promise.all([first, second]);
    expect([a.outcome, b.outcome]).toEqual(['cancelled', 'cancelled']);
    expect(b.workNanos).toBe(0);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
  });

  it('a queued dispatch waits until an async user module has ended its quantum', async () => {
    const driver = await pool();
    const work = { kernel: fixture('count-up.mjs', 'waitFor'), input: 30, totalNanos: 1 };
    const first = driver.quantum(1, work, FOREVER, 0, 0);
    const second = driver.queued(2, spin(1), FOREVER, 0);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ outcome: 'finished', result: 'waited' });
    expect(b.outcome).toBe('finished');
    expect(b.startNanos).toBeGreaterThanOrEqual(a.endNanos);
  });

  it('rejects a queue on an idle or full worker, and a split already running, naming the field', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(20), FOREVER, 0, 0);
    const queue = (splitId: number, workerId: number) => () =>
      driver.backend.enqueue({
        splitId,
        workerId,
        quantumNanos: FOREVER,
        work: spin(1),
        doneNanos: 0,
      });
    expect(queue(5, 1)).toThrow(expect.objectContaining({ field: 'workerId' }));
    expect(queue(1, 0)).toThrow(expect.objectContaining({ field: 'splitId' }));
    // A busy worker holds up to MAX_QUEUED queued dispatches, not one more.
    const queued = [];
    for (let i = 0; i < MAX_QUEUED; i++) queued.push(driver.queued(100 + i, spin(1), FOREVER, 0));
    expect(queue(6, 0)).toThrow(/not a busy worker with room/);
    expect(driver.backend.queueRoom(0)).toBe(0);
    await Promise.all([first, ...queued]);
    expect(driver.backend.queueRoom(0)).toBe(0); // idle: nothing to queue behind
  });

  it('shrinking the pool hands a queued dispatch on a retiring worker back, yielded with no work', async () => {
    const driver = await pool();
    const first = driver.quantum(1, spin(30), FOREVER, 0, 1);
    const second = driver.queued(2, spin(5), FOREVER, 1);
    driver.backend.setWorkerCount(1);
    expect(await second).toMatchObject({ outcome: 'yielded', workNanos: 0, ranNanos: 0 });
    expect((await first).outcome).toBe('finished');
    expect(driver.backend.idleWorkers()).toEqual([0]);
  });

  it('a lost worker: its queued dispatch comes back unstarted, its running one fails', async () => {
    const driver = await pool();
    const exits = { kernel: fixture('failing.mjs', 'exits'), totalNanos: 1 };
    const first = driver.quantum(1, exits, FOREVER, 0, 0);
    const second = driver.queued(2, spin(1), FOREVER, 0);
    const [a, b] = await Promise.all([first, second]);
    expect(a.outcome).toBe('failed');
    expect(a.error).toMatch(/worker lost/);
    expect(b).toMatchObject({ outcome: 'yielded', workNanos: 0 });
    expect(driver.ends.map((e) => e.splitId)).toEqual([2, 1]);
    await driver.backend.ready();
    expect((await driver.quantum(3, spin(1), FOREVER, 0, 0)).outcome).toBe('finished');
  });
});
