import { describe, expect, it } from 'vitest';
import type { QuantumEnd } from '../../runtime/backend.ts';
import { RewritingSim, intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { resultText } from '../../runtime/executor/job-text.ts';
import { Session } from './session.ts';

/** Plays what only threads can do: a lost worker under split 1, a user-module result otherwise. */
function sim(result: (splitId: number) => unknown) {
  return new RewritingSim({ workers: 2, seed: 1 }, (end) => {
    if (end.splitId === 1) {
      return [
        {
          ...end,
          outcome: 'failed',
          workNanos: 0,
          error: 'worker lost: exit code 7',
          errorCode: 'WORKER_LOST',
        } satisfies QuantumEnd,
      ];
    }
    return [end.outcome === 'finished' ? { ...end, result: result(end.splitId) } : end];
  });
}

describe('Session frames: why a job ended, and what it returned', () => {
  it('ended rows carry error, errorCode and a one-split job’s result; running rows none', () => {
    const s = new Session({
      backend: sim((id) => ({ rows: id * 10 })),
      config: { workers: 2, quantumMs: 10, policy: 'fifo' },
    });
    const lost = s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(30))));
    const fine = s.executor.submitJob(oneTaskJob('b', intermediates(1, spin(20))));
    const many = s.executor.submitJob(oneTaskJob('c', intermediates(2, spin(20))));
    const cancelled = s.executor.submitJob(oneTaskJob('d', intermediates(1, spin(5000))));
    const mid = s.advance(100).at(-1)!;
    expect(mid.jobs.find((j) => j.id === cancelled)).toEqual(
      expect.not.objectContaining({ error: expect.anything() }),
    );
    s.executor.cancelJob(cancelled);
    const rows = s.runToIdle().at(-1)!.jobs;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(lost)).toMatchObject({
      state: 'failed',
      errorCode: 'WORKER_LOST',
      error: 'worker lost: exit code 7', // one split: no `split 1:` to say which
    });
    expect(byId.get(fine)).toMatchObject({ state: 'succeeded', result: '{"rows":20}' });
    expect(byId.get(fine)).not.toHaveProperty('error');
    expect(byId.get(many)).toMatchObject({ state: 'succeeded' });
    expect(byId.get(many)).not.toHaveProperty('result');
    expect(byId.get(cancelled)).toMatchObject({
      state: 'cancelled',
      errorCode: 'CANCELLED',
      error: 'cancelled by request',
    });
    // A snapshot lists the same.
    expect(s.snapshot().frame.jobs.find((j) => j.id === lost)).toMatchObject({
      errorCode: 'WORKER_LOST',
    });
  });

  it('a failed job keeps its reason however many jobs with results end after it', () => {
    const s = new Session({
      backend: sim((id) => ({ rows: id })),
      config: { workers: 2, quantumMs: 10, policy: 'fifo' },
      maxJobRows: 8,
    });
    const lost = s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(5)))); // split 1
    for (let i = 0; i < 300; i++) s.executor.submitJob(oneTaskJob('b', intermediates(1, spin(1))));
    const rows = s.runToIdle().at(-1)!.jobs;
    expect(rows.find((r) => r.id === lost)).toMatchObject({ errorCode: 'WORKER_LOST' });
  });

  it('a large result is cut to 200 characters; a cyclic one reads as far as the row goes', () => {
    const s = new Session({
      backend: sim((id) => (id === 2 ? { blob: 'x'.repeat(10_000) } : 12n)),
      config: { workers: 2, quantumMs: 10 },
    });
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(5)))); // split 1: lost
    const big = s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(5))));
    const bigint = s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(5))));
    const rows = s.runToIdle().at(-1)!.jobs;
    const text = rows.find((r) => r.id === big)!.result!;
    expect(text).toHaveLength(200);
    expect(text.startsWith('{"blob":"xxx')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(rows.find((r) => r.id === bigint)!.result).toBe('"12n"');
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    // A cycle (structured clone keeps them) reads as far as the row goes, not `[object Object]`.
    const cyclic = resultText(cycle);
    expect(cyclic.startsWith('{"self":{"self":{"self":')).toBe(true);
    expect(cyclic).toHaveLength(200);
  });
});

describe('Session frames: ended jobs stay in view under overload', () => {
  it('a quarter of the rows is kept for the latest ended jobs when live ones would fill them', () => {
    // Non-preemptive priority: the first job holds the worker until it is cancelled.
    const s = new Session({ config: { workers: 1, policy: 'priority' }, maxJobRows: 16 });
    // Far more live jobs than rows; then two are cancelled while the rest still wait.
    const ids = Array.from({ length: 40 }, () =>
      s.executor.submitJob(oneTaskJob('x', intermediates(1, spin(1000)))),
    );
    s.advance(20);
    s.executor.cancelJob(ids[30]!);
    s.executor.cancelJob(ids[31]!);
    const rows = s.advance(20).at(-1)!.jobs;
    expect(rows).toHaveLength(16);
    expect(rows.filter((r) => r.state === 'cancelled').map((r) => r.id)).toEqual([
      ids[31],
      ids[30],
    ]);
    expect(rows.find((r) => r.id === ids[31])).toMatchObject({ errorCode: 'CANCELLED' });
    // Many jobs succeeding afterwards do not push the cancelled ones out of view.
    for (let i = 0; i < 20; i++) {
      const id = s.executor.submitJob(oneTaskJob('y', intermediates(1, spin(1))));
      s.executor.reprioritize(id, 0);
    }
    s.executor.cancelJob(ids[0]!); // frees the worker for the short, urgent jobs
    const later = s.advance(200).at(-1)!.jobs;
    // Four rows for ended jobs: the three cancelled ones first, then the latest success.
    expect(later.filter((r) => r.state === 'succeeded')).toHaveLength(1);
    expect(later.filter((r) => r.state === 'cancelled').map((r) => r.id)).toEqual([
      ids[0],
      ids[31],
      ids[30],
    ]);
    // With nothing ended, the live jobs take every row.
    const fresh = new Session({ config: { workers: 1, policy: 'fifo' }, maxJobRows: 8 });
    for (let i = 0; i < 20; i++)
      fresh.executor.submitJob(oneTaskJob('x', intermediates(1, spin(1000))));
    expect(
      fresh
        .advance(20)
        .at(-1)!
        .jobs.filter((r) => r.state !== 'cancelled'),
    ).toHaveLength(8);
  });
});
