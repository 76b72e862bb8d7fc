import { afterEach, describe, expect, it } from 'vitest';
import type { Dispatch } from '../backend.ts';
import { HardKill } from './hard-kill.ts';
import type { PoolWorker } from './pool-worker.ts';

// The watchdog's timer on a main thread that was blocked: ends that wait unread in the ports must
// not look like overruns. Fake workers, real timers; every wait is for a condition.

const MS = 1e6;
const now = () => performance.now() * MS;
let watchdog: HardKill | null = null;
afterEach(() => watchdog?.stop());

/** A worker running a user module's quantum of 1 ms, handed over now. */
function fakeWorker(): PoolWorker {
  const running = {
    splitId: 7,
    quantumNanos: MS,
    work: { kernel: { module: 'file:///m.mjs' }, totalNanos: 0 },
  } as unknown as Dispatch;
  return {
    running,
    booted: true,
    cancelAt: null,
    sentAt: now(),
    queuedStarted: () => false,
    drainEnds: () => {},
  } as unknown as PoolWorker;
}

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the main thread busy, as in a burst of `scheduler.run` calls
  }
}

/** A watchdog over one fake worker with a 40 ms limit; `kills` collects why it killed. */
function watchOne(): { worker: ReturnType<typeof fakeWorker>; kills: string[] } {
  const worker = fakeWorker();
  const kills: string[] = [];
  watchdog = new HardKill(
    now,
    () => [worker],
    (_w, why) => kills.push(why) > 0,
  );
  watchdog.set(40 * MS);
  return { worker, kills };
}

describe('HardKill on a blocked main thread', { timeout: 30_000 }, () => {
  it('does not kill a worker whose end was read right after the block', async () => {
    const { worker, kills } = watchOne();
    await new Promise<void>((resolve) => {
      // Blocked in the check phase; the end is read in the next loop's check phase, after the
      // timers phase has run the watchdog's first tick since the block.
      setImmediate(() => {
        blockFor(400);
        setImmediate(() => {
          (worker as { running: Dispatch | null }).running = null;
          resolve();
        });
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(kills).toEqual([]);
  });

  it('still kills a quantum that overran, once its ticks come on time', async () => {
    const { kills } = watchOne();
    const deadline = performance.now() + 20_000;
    while (kills.length === 0 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(kills[0]).toMatch(/^killed: its quantum overran by .* without yielding/);
  });
});
