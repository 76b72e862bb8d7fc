import { describe, expect, it } from 'vitest';
import type { QuantumEnd } from '../backend.ts';
import { Executor, type JobEnd, type SplitEnd } from './executor.ts';
import { MS, RewritingSim, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

function watch(ex: Executor) {
  const jobs: JobEnd[] = [];
  const splits: SplitEnd[] = [];
  ex.onJobEnd((e) => jobs.push(e));
  ex.onSplitEnd((e) => splits.push(e));
  return { jobs, splits };
}

describe('why a job or split ended: catalogue codes with the human message', () => {
  it('a kernel failure past its retries is KERNEL_FAILED on the split and the job', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, retryBackoffMs: 1 });
    const { jobs, splits } = watch(ex);
    const id = ex.submitJob(
      oneTaskJob('a', intermediates(1, spin(10, { failProbability: 1 })), { retries: 2 }),
    );
    sim.runUntilIdle();
    expect(ex.counters.retries).toBe(2);
    expect(splits).toEqual([
      expect.objectContaining({ state: 'failed', errorCode: 'KERNEL_FAILED' }),
    ]);
    expect(jobs).toEqual([
      expect.objectContaining({
        jobId: id,
        state: 'failed',
        errorCode: 'KERNEL_FAILED',
        error: expect.stringMatching(/^split 1: injected failure/),
      }),
    ]);
  });

  it('a worker that died under its split is WORKER_LOST, message kept (also without the split)', () => {
    // Plays the threads backend losing the worker during the split's first quantum.
    const sim = new RewritingSim({ workers: 1 }, (end) => [
      {
        ...end,
        outcome: 'failed',
        workNanos: 0,
        error: 'worker lost: exit code 1',
        errorCode: 'WORKER_LOST',
      } satisfies QuantumEnd,
    ]);
    const ex = new Executor(sim, { workers: 1, quantumMs: 10 });
    const { jobs, splits } = watch(ex);
    ex.submitJob(oneTaskJob('a', intermediates(1, spin(30))));
    sim.runUntilIdle();
    expect(splits[0]).toMatchObject({ state: 'failed', errorCode: 'WORKER_LOST' });
    expect(jobs[0]).toMatchObject({
      state: 'failed',
      errorCode: 'WORKER_LOST',
      error: 'split 1: worker lost: exit code 1',
      splitError: 'worker lost: exit code 1',
    });
  });

  it('a cancelled job and its splits are CANCELLED; so is every job live when the engine closes', async () => {
    const { sim, ex } = simRig({ workers: 2, quantumMs: 10, policy: 'fifo' });
    const { jobs, splits } = watch(ex);
    const a = ex.submitJob(oneTaskJob('a', intermediates(3, spin(50))));
    const b = ex.submitJob(oneTaskJob('b', intermediates(1, spin(50))));
    sim.runUntil(5 * MS);
    ex.cancelJob(a);
    expect(jobs).toEqual([
      expect.objectContaining({ jobId: a, errorCode: 'CANCELLED', error: 'cancelled by request' }),
    ]);
    expect(splits.map((s) => [s.jobId, s.state, s.errorCode])).toEqual([
      [a, 'cancelled', 'CANCELLED'],
      [a, 'cancelled', 'CANCELLED'],
      [a, 'cancelled', 'CANCELLED'],
    ]);
    await ex.close();
    expect(jobs.at(-1)).toMatchObject({ jobId: b, errorCode: 'CANCELLED', error: 'engine closed' });
  });

  it('a job refused by the bounded queue is QUEUE_FULL', () => {
    const { ex } = simRig({ workers: 1, maxQueued: 2 });
    const { jobs } = watch(ex);
    ex.submitJob(oneTaskJob('a', intermediates(3, spin(5))));
    expect(jobs).toEqual([expect.objectContaining({ state: 'rejected', errorCode: 'QUEUE_FULL' })]);
  });

  it('a succeeded job and split carry no code', () => {
    const { sim, ex } = simRig({ workers: 1 });
    const { jobs, splits } = watch(ex);
    ex.submitJob(oneTaskJob('a', intermediates(1, spin(5))));
    sim.runUntilIdle();
    for (const e of [...jobs, ...splits]) expect(e).not.toHaveProperty('errorCode');
  });
});

describe('stale quantum ends', () => {
  it('an end for a split the executor did not start is ignored and counted, never run twice', () => {
    // A buggy backend: it reports every finished quantum twice.
    const sim = new RewritingSim({ workers: 2 }, (end) =>
      end.outcome === 'finished' ? [end, { ...end }] : [end],
    );
    const ex = new Executor(sim, { workers: 2, quantumMs: 10, policy: 'fifo' });
    const { jobs, splits } = watch(ex);
    ex.submitJob(oneTaskJob('a', intermediates(5, spin(25))));
    sim.runUntilIdle();
    expect(jobs.map((j) => j.state)).toEqual(['succeeded']);
    expect(splits).toHaveLength(5);
    const c = ex.counters;
    expect(c).toMatchObject({ splitsSucceeded: 5, quanta: 15, staleEnds: 5 });
    expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
    expect(simRig().ex.counters.staleEnds).toBe(0);
  });
});

describe('closing with a split on a worker', () => {
  it('drain resolves, whether waiting already or called after close', async () => {
    // Before: close() left the running split's worker busy for good (no worker reports after
    // it), and every drain — one waiting, or one called later — never settled.
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 1000 });
    const id = ex.submitJob(oneTaskJob('long', intermediates(1, spin(3000))));
    sim.runUntil(100 * MS);
    expect(ex.counters.splitsRunning).toBe(1);
    ex.cancelJob(id); // cancelled while it runs: its worker holds it until it reports
    const waiting = ex.drain();
    let drained = false;
    void waiting.then(() => (drained = true));
    await ex.close();
    await waiting;
    expect(drained).toBe(true);
    await ex.drain();
    expect(ends.map((e) => e.state)).toEqual(['cancelled']);
  });
});
