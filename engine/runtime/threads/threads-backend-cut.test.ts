import { describe, expect, it } from 'vitest';
import type { SplitWork } from '../backend.ts';
import { fixture, MS, sharedDriver } from './fixtures/driver.ts';

// `shortenQuantum`: what the executor calls when it leaves non-preemptive priority, whose quanta
// would otherwise run to completion. Every test leaves the pool idle, so they share one.
const pool = sharedDriver();

const FOREVER = 600_000 * MS;
const longSpin: SplitWork = { kernel: 'spin', totalNanos: 120_000 * MS };
/** Resolves once a split has surely been running a while (the assertions never depend on it). */
const running = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('ThreadsBackend.shortenQuantum', { timeout: 60_000 }, () => {
  it('ends a run-to-completion kernel quantum soon after the cut, as a yield with work left', async () => {
    const driver = await pool();
    const pending = driver.quantum(1, longSpin, FOREVER, 0, 0);
    await running();
    driver.backend.shortenQuantum(0, 0);
    const end = await pending;
    expect(end.outcome).toBe('yielded');
    expect(end.workNanos).toBeGreaterThan(0);
    expect(end.workNanos).toBeLessThan(longSpin.totalNanos);
    expect(end.ranNanos).toBeLessThan(1_000 * MS);
    expect(driver.backend.idleWorkers()).toEqual([0, 1]);
  });

  it('cuts to the length asked, from the quantum start; the next quantum runs in full', async () => {
    const driver = await pool();
    const pending = driver.quantum(2, longSpin, FOREVER, 0, 1);
    driver.backend.shortenQuantum(1, 100 * MS);
    driver.backend.shortenQuantum(1, 900 * MS); // a longer cut does not undo the shorter one
    const cut = await pending;
    expect(cut.outcome).toBe('yielded');
    expect(cut.ranNanos).toBeGreaterThanOrEqual(100 * MS);
    expect(cut.ranNanos).toBeLessThan(850 * MS);
    // The cut named split 2's quantum that has ended: its next one on that worker is not cut.
    const next = await driver.quantum(2, longSpin, 250 * MS, cut.workNanos, 1);
    expect(next.outcome).toBe('yielded');
    expect(next.ranNanos).toBeGreaterThanOrEqual(250 * MS);
  });

  it('a cut ends with its quantum, even when the worker goes straight on to a queued one', async () => {
    const driver = await pool();
    const first = driver.quantum(9, longSpin, FOREVER, 0, 1);
    driver.backend.shortenQuantum(1, 50 * MS);
    const second = driver.queued(10, longSpin, 300 * MS, 1);
    const cut = await first;
    expect(cut.ranNanos).toBeLessThan(300 * MS);
    // Split 9 again, queued behind 10 on the worker that never went idle: not cut.
    const again = await driver.queued(9, longSpin, 250 * MS, 1);
    expect((await second).ranNanos).toBeGreaterThanOrEqual(300 * MS);
    expect(again.ranNanos).toBeGreaterThanOrEqual(250 * MS);
  });

  it("cuts a user module's quantum through shouldYield: it yields its state and goes on", async () => {
    const driver = await pool();
    const work: SplitWork = {
      kernel: fixture('count-up.mjs', 'countUp'),
      input: { i: 0, target: 1e12, quanta: 0 },
      totalNanos: 1,
    };
    const pending = driver.quantum(3, work, FOREVER, 0, 0);
    await running();
    driver.backend.shortenQuantum(0, 0);
    const end = await pending;
    expect(end.outcome).toBe('yielded');
    expect(end.ranNanos).toBeLessThan(1_000 * MS);
    const after = await driver.quantum(3, work, 5 * MS, 0, 0);
    expect(after.outcome).toBe('yielded');
    driver.backend.cancel(3);
  });

  it('also cuts a dispatch queued on that worker, once it starts', async () => {
    const driver = await pool();
    const first = driver.quantum(4, longSpin, FOREVER, 0, 0);
    const second = driver.queued(5, longSpin, FOREVER, 0);
    driver.backend.shortenQuantum(0, 100 * MS);
    const [a, b] = await Promise.all([first, second]);
    expect([a.outcome, b.outcome]).toEqual(['yielded', 'yielded']);
    expect(b.ranNanos).toBeGreaterThanOrEqual(100 * MS);
    expect(b.ranNanos).toBeLessThan(1_000 * MS);
  });

  it("leaves a per-call split's atomic call whole", async () => {
    const driver = await pool();
    const work: SplitWork = { kernel: 'spin', totalNanos: 500 * MS, perCallNanos: 60 * MS };
    const pending = driver.quantum(6, work, 1 * MS, 0, 0);
    driver.backend.shortenQuantum(0, 0);
    expect(await pending).toMatchObject({ outcome: 'yielded', workNanos: 60 * MS });
  });

  it('ignores an idle worker and rejects a bad length, naming the field', async () => {
    const driver = await pool();
    driver.backend.shortenQuantum(1, 0);
    driver.backend.shortenQuantum(99, 0);
    const end = await driver.quantum(7, { kernel: 'spin', totalNanos: 20 * MS }, FOREVER, 0, 1);
    expect(end.outcome).toBe('finished');
    expect(() => driver.backend.shortenQuantum(0, Number.NaN)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'quantumNanos' }),
    );
    expect(() => driver.backend.shortenQuantum(0, -1)).toThrow(/quantumNanos must be/);
  });
});
