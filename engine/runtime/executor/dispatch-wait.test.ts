import { describe, expect, it } from 'vitest';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor } from './executor.ts';
import { MS, intermediates, leaves, oneTaskJob, spin } from './testing.ts';

function oneWorker(quantumMs: number) {
  const sim = new SimBackend({ workers: 1, seed: 1 });
  const ex = new Executor(sim, { workers: 1, quantumMs, policy: 'fifo' });
  return { sim, ex };
}

describe('dispatch waits', () => {
  it('tells each wait as it ends: the first one from creation, later ones from each requeue', () => {
    const { sim, ex } = oneWorker(10);
    const seen: string[] = [];
    ex.onDispatchWait((cls, wait, priority) => {
      seen.push(`${ex.spans.className(cls)}:${wait / MS}ms@${priority}`);
    });
    ex.submitJob(oneTaskJob('a', intermediates(1, spin(20)), { basePriority: 70 }));
    ex.submitJob(oneTaskJob('b', intermediates(1, spin(20))));
    sim.runUntilIdle();
    // One worker, 10 ms quanta, fifo: a, b, a, b; each waits out the other's quantum.
    expect(seen).toEqual(['a:0ms@70', 'b:10ms@50', 'a:10ms@70', 'b:10ms@50']);
  });

  it('lists the waits still in progress, a split never dispatched included', () => {
    const { sim, ex } = oneWorker(100);
    ex.submitJob(oneTaskJob('long', intermediates(1, spin(30))));
    ex.submitJob(oneTaskJob('stuck', intermediates(1, spin(5))));
    sim.runUntil(25 * MS);
    const open: string[] = [];
    ex.forEachWaitInProgress((cls, wait) => open.push(`${ex.spans.className(cls)}:${wait / MS}`));
    expect(open).toEqual(['stuck:25']);
    expect(ex.oldestWaitNanos()).toBe(25 * MS);
  });

  it('refuses a second visitor, naming onDispatchWait', () => {
    const { ex } = oneWorker(10);
    ex.onDispatchWait(() => {});
    expect(() => ex.onDispatchWait(() => {})).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'onDispatchWait' }),
    );
  });

  it("Trino's getWaitNanos and splitQueuedTime: a leaf split's wait starts when admission puts it in the ready queue", () => {
    const sim = new SimBackend({ workers: 1, seed: 1 });
    const ex = new Executor(sim, {
      workers: 1,
      quantumMs: 100,
      policy: 'fifo',
      guaranteedPerTask: 1,
      minDrivers: 1,
    });
    const waits: number[] = [];
    const queued: number[] = [];
    ex.onDispatchWait((_cls, wait) => waits.push(wait / MS));
    ex.onAdmissionQueued((_cls, q) => queued.push(q / MS));
    // One driver per task: the second leaf is held by admission until the first ends at 10 ms.
    ex.submitJob(oneTaskJob('scan', leaves(3, spin(10))));
    sim.runUntil(15 * MS);
    const open: number[] = [];
    ex.forEachQueuedInProgress((_cls, q) => open.push(q / MS));
    expect(open).toEqual([15]); // the third, held since 0
    sim.runUntilIdle();
    expect(queued).toEqual([0, 10, 20]); // creation → admission
    expect(waits).toEqual([0, 0, 0]); // admission → dispatch: the worker was free each time
  });
});
