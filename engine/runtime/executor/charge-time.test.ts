// What a quantum charges to the queue. Trino's PrioritizedSplitRunner.process charges a quantum's
// scheduled (wall) time to its task (addScheduledNanos) and so to its level: `chargeTime: 'wall'`,
// the default. `chargeTime: 'cpu'` charges the CPU time its worker thread used instead, where the
// backend measured it (threads on Linux), and the wall time where it did not (the simulator).
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { fixture } from '../threads/fixtures/driver.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor } from './executor.ts';
import { intermediates, MS, oneTaskJob, RewritingSim, spin } from './testing.ts';

/** One split of 60 ms in 10 ms quanta, on a sim whose quanta say they used `cpuShare` CPU. */
function ioBound(config: EngineConfigPatch, cpuShare: number | null): Executor {
  const sim = new RewritingSim({ workers: 1, seed: 1 }, (end) => [
    cpuShare === null ? end : { ...end, cpuNanos: Math.round(end.ranNanos * cpuShare) },
  ]);
  const ex = new Executor(sim, {
    workers: 1,
    quantumMs: 10,
    levelThresholdsMs: [0, 15, 40, 1000, 2000],
    ...config,
  });
  ex.submitJob(oneTaskJob('io', intermediates(1, spin(60))));
  sim.runUntilIdle();
  return ex;
}

const levelsRun = (ex: Executor) => [...ex.spans.read(0).columns.level];
const charged = (ex: Executor) => ex.levels().map((l) => (l.chargedNanos ?? 0) / MS);

describe('chargeTime', () => {
  it("wall (Trino's PrioritizedSplitRunner: the quantum's scheduled time): a split that waits on I/O still climbs levels", () => {
    const ex = ioBound({}, 0.1);
    expect(ex.config.chargeTime).toBe('wall');
    expect(levelsRun(ex)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(charged(ex)).toEqual([20, 20, 20, 0, 0]);
    expect(ex.jobs()[0]!.scheduledNanos).toBe(60 * MS);
  });

  it('cpu: the same split is charged a tenth of that and stays in level 0', () => {
    const ex = ioBound({ chargeTime: 'cpu' }, 0.1);
    expect(levelsRun(ex)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(charged(ex)).toEqual([6, 0, 0, 0, 0]);
    expect(ex.jobs()[0]!.scheduledNanos).toBe(6 * MS);
    // Busy time stays wall time: the worker was held for the whole quantum.
    expect(ex.counters.busyNanos).toBe(60 * MS);
  });

  it('cpu where nothing measured CPU time (the simulator) charges the wall time', () => {
    const ex = ioBound({ chargeTime: 'cpu' }, null);
    expect(levelsRun(ex)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(charged(ex)).toEqual([20, 20, 20, 0, 0]);
  });

  it('an unknown mode is refused naming the field', () => {
    expect(() => ioBound({ chargeTime: 'user' as 'cpu' }, null)).toThrow(/chargeTime/);
  });
});

describe('chargeTime on real threads', { timeout: 60_000 }, () => {
  let backend: ThreadsBackend | null = null;
  afterEach(async () => {
    await backend?.close();
    backend = null;
  });

  /**
   * A user module that awaits a 200 ms timer in one quantum (it holds its worker, using almost no
   * CPU): what the FIFO row was charged (ms), and the busy time.
   */
  async function sleeper(chargeTime: 'wall' | 'cpu'): Promise<{ charged: number; busy: number }> {
    backend = new ThreadsBackend({ workers: 1 });
    const ex = new Executor(backend, { workers: 1, quantumMs: 1000, policy: 'fifo', chargeTime });
    const work = { kernel: fixture('stuck.mjs', 'sleeps'), input: { ms: 200 }, totalNanos: 1 };
    ex.submitJob(oneTaskJob('io', intermediates(1, work)));
    await ex.drain();
    const out = { charged: charged(ex)[0]!, busy: ex.counters.busyNanos / MS };
    await backend.close();
    backend = null;
    return out;
  }

  it('a sleeping split: wall charges its sleep, cpu next to nothing (Linux, where threads measure CPU)', async () => {
    const wall = await sleeper('wall');
    expect(wall.charged).toBeGreaterThanOrEqual(200);
    if (process.platform !== 'linux') {
      console.warn('chargeTime cpu on threads not checked: no per-thread CPU clock off Linux');
      return;
    }
    const cpu = await sleeper('cpu');
    expect(cpu.busy).toBeGreaterThanOrEqual(200);
    expect(cpu.charged).toBeLessThan(cpu.busy / 2);
  });
});
