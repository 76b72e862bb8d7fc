import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { intermediates, leaves, oneTaskJob, spanProblems, spin } from './testing.ts';

let backend: ThreadsBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

function rig(policy: PolicyName, workers = 2): { ex: Executor; ends: JobEnd[] } {
  backend = new ThreadsBackend({ workers });
  const ex = new Executor(backend, { policy, quantumMs: 4 });
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  return { ex, ends };
}

/** Resolves after `n` more jobs have ended (a progress point, not a fixed sleep). */
function afterEnds(ex: Executor, n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const off = ex.onJobEnd(() => {
      if (++seen === n) {
        off();
        resolve();
      }
    });
  });
}

describe('executor on real worker threads', () => {
  it('adopts the backend worker count unless configured', () => {
    const { ex } = rig('fifo', 3);
    expect(ex.config.workers).toBe(3);
  }, 20_000);

  it('policy switches and resizes under load lose and duplicate nothing', async () => {
    const { ex, ends } = rig('mlfq');
    for (let j = 0; j < 60; j++)
      ex.submitJob(oneTaskJob(j % 3 ? 'short' : 'long', leaves(2, spin(j % 3 ? 3 : 12))));
    await afterEnds(ex, 5);
    ex.setPolicy('fifo');
    ex.setWorkers(1);
    await afterEnds(ex, 5);
    ex.setPolicy('priority');
    ex.setWorkers(3);
    await afterEnds(ex, 5);
    ex.setPolicy('fair');
    await ex.drain();
    expect(ends).toHaveLength(60);
    expect(new Set(ends.map((e) => e.jobId)).size).toBe(60);
    expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
    const spans = ex.spans.read(0).columns;
    const check = spanProblems(spans);
    expect(check.problems).toEqual([]);
    expect(check.finished).toBe(120);
  }, 60_000);

  it('cancels queued and running splits of a job on threads', async () => {
    const { ex, ends } = rig('fifo');
    const id = ex.submitJob(oneTaskJob('scan', intermediates(6, spin(400))));
    const other = ex.submitJob(oneTaskJob('short', intermediates(1, spin(5))));
    // Wait for progress (four quanta done), not for a fixed time.
    await new Promise<void>((resolve) => {
      const poll = (): void => (ex.counters.quanta >= 4 ? resolve() : void setImmediate(poll));
      poll();
    });
    expect(ex.counters.splitsRunning).toBeGreaterThan(0);
    expect(ex.cancelJob(id)).toBe(true);
    await ex.drain();
    expect(ends.find((e) => e.jobId === id)?.state).toBe('cancelled');
    expect(ends.find((e) => e.jobId === other)?.state).toBe('succeeded');
    expect(ex.counters.splitsRunning).toBe(0);
  }, 60_000);
});
