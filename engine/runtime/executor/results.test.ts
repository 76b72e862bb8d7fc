import { describe, expect, it } from 'vitest';
import { Executor, type JobEnd, type SplitEnd } from './executor.ts';
import { MS, RewritingSim, intermediates, oneTaskJob, spin } from './testing.ts';

function rig() {
  // The sim runs no user code, so it never has a result: this one answers a finished split with
  // what a user module would return (threads does for real; see threads-integration.test.ts).
  const sim = new RewritingSim({ workers: 2, seed: 1 }, (end) => [
    end.outcome === 'finished' ? { ...end, result: { answer: end.splitId * 10 } } : end,
  ]);
  const ex = new Executor(sim, { workers: 2, quantumMs: 10, policy: 'fifo' });
  const jobs: JobEnd[] = [];
  const splits: SplitEnd[] = [];
  ex.onJobEnd((e) => jobs.push(e));
  ex.onSplitEnd((e) => splits.push(e));
  return { sim, ex, jobs, splits };
}

describe('results of user modules', () => {
  it('a finished split hands its result to its split end, and a one-split job to its job end', () => {
    const { sim, ex, jobs, splits } = rig();
    const id = ex.submitJob(oneTaskJob('mine', intermediates(1, spin(25))));
    sim.runUntilIdle();
    expect(splits).toHaveLength(1);
    expect(splits[0]!.result).toEqual({ answer: splits[0]!.splitId * 10 });
    expect(jobs).toEqual([
      expect.objectContaining({ jobId: id, state: 'succeeded', result: splits[0]!.result }),
    ]);
  });

  it('a job of many splits gives each split its own result and the job end none', () => {
    const { sim, ex, jobs, splits } = rig();
    ex.submitJob(oneTaskJob('mine', intermediates(3, spin(15))));
    sim.runUntilIdle();
    expect(splits.map((s) => s.result)).toEqual(splits.map((s) => ({ answer: s.splitId * 10 })));
    expect(new Set(splits.map((s) => s.splitId)).size).toBe(3);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!).not.toHaveProperty('result');
  });

  it('a split cancelled mid-quantum or failed carries no result', () => {
    const { sim, ex, jobs, splits } = rig();
    const cancelled = ex.submitJob(oneTaskJob('mine', intermediates(1, spin(100))));
    const failed = ex.submitJob(
      oneTaskJob('mine', intermediates(1, spin(10, { failProbability: 1 }))),
    );
    sim.runUntil(5 * MS);
    ex.cancelJob(cancelled);
    sim.runUntilIdle();
    expect(jobs.map((j) => [j.jobId, j.state])).toEqual([
      [cancelled, 'cancelled'],
      [failed, 'failed'],
    ]);
    for (const e of [...jobs, ...splits]) expect(e).not.toHaveProperty('result');
  });
});
