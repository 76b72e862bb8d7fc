import { describe, expect, it } from 'vitest';
import type { QuantumEnd, SplitWork } from '../backend.ts';
import { fixture, MS, ownedDrivers } from './fixtures/driver.ts';

// The backend's workers take their dispatches from a dispatch ring in shared memory
// (dispatch-ring.ts): many dispatches queued at once behind a busy worker cross it together,
// small inputs in the records and the rest beside them, and every way a queued dispatch ends
// still ends it exactly once.
const pool = ownedDrivers();

const spin = (ms: number): SplitWork => ({ kernel: 'spin', totalNanos: ms * MS });
const described: SplitWork = { kernel: fixture('tasks.mjs', 'describe'), totalNanos: 1 };
const FOREVER = 600_000 * MS;

/** Inputs of every kind: numbers and undefined fit a record; the rest cross beside it. */
const INPUTS: unknown[] = [
  41,
  undefined,
  'text',
  -0.25,
  { nested: { list: [1, 2, 3] } },
  10n ** 30n,
  null,
  true,
  new Float64Array(20_000).fill(1.5), // 160 kB: far beyond a record
  'x'.repeat(50_000),
];

function withInput(input: unknown): SplitWork {
  return { ...described, input };
}

describe('ThreadsBackend dispatch ring', { timeout: 60_000 }, () => {
  it('dispatches queued together behind a busy worker each run once, with their own input, in order', async () => {
    const driver = await pool();
    const running = driver.quantum(1, spin(30), FOREVER, 0, 0);
    const queued: Promise<QuantumEnd>[] = [];
    for (let i = 0; i < 60; i++) {
      queued.push(driver.queued(100 + i, withInput(INPUTS[i % INPUTS.length]), FOREVER, 0));
    }
    await running;
    const ends = await Promise.all(queued);
    ends.forEach((end, i) => {
      const input = INPUTS[i % INPUTS.length];
      expect(end).toMatchObject({ splitId: 100 + i, outcome: 'finished', workerId: 0 });
      expect(end.result).toEqual({ type: typeof input, value: input });
    });
    // The worker runs its queue in order: the ends came in the order the dispatches were queued.
    expect(driver.ends.map((end) => end.splitId)).toEqual([1, ...ends.map((end) => end.splitId)]);
  });

  it('a dispatch taken back while its record waits in the ring never runs', async () => {
    const driver = await pool();
    const running = driver.quantum(1, spin(40), FOREVER, 0, 0);
    const later: Promise<QuantumEnd>[] = [];
    for (let i = 0; i < 10; i++) later.push(driver.queued(10 + i, withInput(i), FOREVER, 0));
    await new Promise((resolve) => setImmediate(resolve)); // the records are in the ring now
    expect(driver.backend.revoke(14)).toBe(true);
    expect(driver.backend.revoke(17)).toBe(true);
    await running;
    const kept = [0, 1, 2, 3, 5, 6, 8, 9];
    const ends = await Promise.all(kept.map((i) => later[i]!));
    expect(ends.map((end) => end.result)).toEqual(kept.map((i) => ({ type: 'number', value: i })));
    // The worker runs its ring in order, so a revoked record that ran would have ended before 19.
    expect(driver.ends.map((end) => end.splitId)).toEqual([1, ...kept.map((i) => 10 + i)]);
  });

  it('a worker lost with records in its ring: the running split fails once, each queued one comes back once and runs on its replacement', async () => {
    const driver = await pool();
    const exit: SplitWork = { kernel: fixture('tasks.mjs', 'exitWorker'), totalNanos: 1, input: 3 };
    const lost = driver.quantum(1, exit, FOREVER, 0, 0);
    const queued: Promise<QuantumEnd>[] = [];
    for (let i = 0; i < 20; i++) queued.push(driver.queued(10 + i, withInput(`q${i}`), FOREVER, 0));
    const end = await lost;
    expect(end).toMatchObject({ outcome: 'failed', errorCode: 'WORKER_LOST' });
    const back = await Promise.all(queued);
    for (const b of back) expect(b).toMatchObject({ outcome: 'yielded', workNanos: 0 });
    expect(driver.ends.map((e) => e.splitId).sort((a, b) => a - b)).toEqual([
      1,
      ...back.map((b) => b.splitId),
    ]);
    // Offered again, each runs once with its input (the replacement's ring starts empty).
    const again = await Promise.all(
      back.map((b, i) =>
        driver.onIdle((id) => driver.quantum(b.splitId, withInput(`q${i}`), FOREVER, 0, id)),
      ),
    );
    again.forEach((a, i) =>
      expect(a).toMatchObject({ outcome: 'finished', result: { type: 'string', value: `q${i}` } }),
    );
    expect(driver.ends).toHaveLength(1 + 20 + 20);
  });
});
