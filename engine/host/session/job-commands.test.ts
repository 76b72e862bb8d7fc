import { describe, expect, it } from 'vitest';
import { MAX_SPLITS_PER_JOB } from '../../../shared/limits.ts';
import type { FindJobsResult, JobDetail, JobWarning } from '../../../shared/protocol.ts';
import { intermediates, MS, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

function session(config: Record<string, unknown>, starvationMs = 120_000) {
  return new Session({ config: { workers: 1, ...config }, alarms: { starvationMs } });
}

const rules = (w: readonly JobWarning[] | undefined, jobId: number) =>
  (w ?? []).filter((x) => x.jobId === jobId).map((x) => x.rule);

describe('findJobs and jobDetail as protocol commands', () => {
  it('answers a search beyond the 200 rows a frame carries, and a job’s detail', async () => {
    const s = session({ policy: 'fifo', quantumMs: 10 });
    for (let i = 0; i < 250; i++) {
      s.executor.submitJob(oneTaskJob('filler', intermediates(1, spin(60_000))));
    }
    const needle = s.executor.submitJob(oneTaskJob('needle', intermediates(2, spin(60_000))));
    const frame = s.advance(200).at(-1)!;
    expect(frame.jobs.some((j) => j.id === needle)).toBe(false);
    const found = await s.handleCommand({ type: 'findJobs', id: 7, query: 'needle' });
    expect(found).toMatchObject({ ok: true, id: 7, matched: 1, more: 0 });
    expect((found as unknown as FindJobsResult).jobs[0]).toMatchObject({ id: needle });
    const detail = await s.handleCommand({ type: 'jobDetail', jobId: needle });
    expect(detail.ok).toBe(true);
    const d = detail as unknown as JobDetail;
    expect(d.splits.map((x) => x.state)).toEqual(['queued', 'queued']);
    // Waiting since submission (1 worker, 250 jobs ahead): the wait in progress counts.
    expect(d.splits[0]!.waitNanos).toBe(200 * 1e6);
    // No split of it has started: queued, not running (every live job read running).
    expect(d.job.state).toBe('queued');
    await s.close();
  });

  it('refuses a submitted job of more splits in all than a workload job may have, naming the limit', async () => {
    const s = session({});
    const split = { kind: 'leaf', work: { kernel: 'spin', totalNanos: 1000 } } as const;
    const tasks = (n: number) => [0, 1].map(() => ({ splits: Array(n / 2).fill(split) }));
    const over = await s.handleCommand({
      type: 'submitJob',
      job: { class: 'big', tasks: tasks(MAX_SPLITS_PER_JOB + 2) },
    });
    expect(over).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'job.tasks' },
    });
    expect((over as { error: { message: string } }).error.message).toContain(
      `at most ${MAX_SPLITS_PER_JOB} splits`,
    );
    expect(s.executor.counters.submitted).toBe(0);
    const at = await s.handleCommand({
      type: 'submitJob',
      job: { class: 'big', tasks: tasks(MAX_SPLITS_PER_JOB) },
    });
    expect(at).toMatchObject({ ok: true });
    await s.close();
  });

  it('refuses a bad limit or query, and an unknown job, each naming the field', async () => {
    const s = session({});
    const big = await s.handleCommand({ type: 'findJobs', query: '', limit: 10_000 });
    expect(big).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE', field: 'limit' } });
    const bad = await s.handleCommand({ type: 'findJobs', query: 'size:big' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', field: 'query' } });
    const none = await s.handleCommand({ type: 'jobDetail', jobId: 12345 });
    expect(none).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ID', field: 'jobId' } });
    await s.close();
  });
});

describe('warnings in frames: jobs that look wrong now, with the rule', () => {
  it('starving: a split waits past the starvation bound; the warning goes once it runs', () => {
    const s = session({ policy: 'fifo', quantumMs: 60_000 }, 500);
    s.executor.submitJob(oneTaskJob('hog', intermediates(1, spin(2000))));
    const victim = s.executor.submitJob(oneTaskJob('victim', intermediates(1, spin(10))));
    expect(rules(s.advance(300).at(-1)!.warnings, victim)).toEqual([]);
    const frame = s.advance(500).at(-1)!;
    expect(rules(frame.warnings, victim)).toEqual(['starving']);
    expect(frame.warnings![0]!.message).toMatch(/has waited .* \(bound 500/);
    expect(rules(s.advance(2000).at(-1)!.warnings, victim)).toEqual([]);
  });

  it('retries: a split retried more than 3 times', () => {
    const s = session({ policy: 'fifo', quantumMs: 10, retryBackoffMs: 1 });
    const flaky = s.executor.submitJob(
      oneTaskJob('flaky', intermediates(1, spin(5, { failProbability: 1 })), { retries: 10 }),
    );
    const seen = s.advance(200).flatMap((f) => rules(f.warnings, flaky));
    expect(seen).toContain('retries');
  });

  it('slow-split: a split far longer than its class’s median; overrun: a quantum past runawayAfterMs', () => {
    const s = session({ policy: 'fifo', quantumMs: 10, runawayAfterMs: 20 });
    // Enough splits of the class for its statistics (CLASS_TIME_MIN_SAMPLES).
    for (let i = 0; i < 40; i++) s.executor.submitJob(oneTaskJob('q', intermediates(1, spin(5))));
    s.advance(500);
    const slow = s.executor.submitJob(oneTaskJob('q', intermediates(1, spin(5000))));
    const over = s.executor.submitJob(
      oneTaskJob('atomic', intermediates(1, spin(200, { perCallNanos: 100 * MS }))),
    );
    const frames = s.advance(3000);
    expect(frames.flatMap((f) => rules(f.warnings, slow))).toContain('slow-split');
    expect(frames.flatMap((f) => rules(f.warnings, over))).toContain('overrun');
    expect(s.frame().warningsMore).toBe(0);
  });
});
