import { describe, expect, it } from 'vitest';
import { schedLabErrorOf } from '../../../shared/testing.ts';
import type { SplitDetail } from '../../../shared/protocol.ts';
import type { QuantumEnd } from '../backend.ts';
import { intermediates, MS, oneTaskJob, RewritingSim, simRig, spin } from './testing.ts';
import { Executor } from './executor.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { ThreadsBackend } from '../threads/index.ts';

const kinds = (d: SplitDetail) => d.segments.map((s) => s.kind);

describe('findJobs: search beyond the frame rows, bounded answers', () => {
  it('finds a live job by id, class, tenant and state among 300 others', () => {
    const { ex, sim } = simRig({ workers: 1, policy: 'fifo', quantumMs: 10 });
    for (let i = 0; i < 300; i++)
      ex.submitJob(oneTaskJob('filler', intermediates(1, spin(60_000))));
    const needle = ex.submitJob({
      ...oneTaskJob('needle', intermediates(1, spin(60_000))),
      tenant: 'acme',
    });
    sim.runUntil(50 * MS);
    // The frame's rows (200, live oldest first) do not reach it.
    expect(ex.jobs(200).some((j) => j.id === needle)).toBe(false);
    expect(ex.findJobs('needle').jobs.map((j) => j.id)).toEqual([needle]);
    expect(ex.findJobs(`id:${needle}`).jobs.map((j) => j.id)).toEqual([needle]);
    expect(ex.findJobs(String(needle)).jobs.map((j) => j.id)).toEqual([needle]);
    expect(ex.findJobs('tenant:ACM').jobs[0]).toMatchObject({ id: needle, tenant: 'acme' });
    // One worker, 10 ms quanta taken in turn: six fillers have had one by 50 ms (0, 10, … 50 ms);
    // the rest and the needle wait for their first.
    expect(ex.findJobs('acme queued').matched).toBe(1);
    expect(ex.findJobs('acme running').matched).toBe(0);
    expect(ex.findJobs('succeeded').matched).toBe(0);
    expect(ex.findJobs('class:fill state:running')).toMatchObject({ matched: 6, more: 0 });
    const page = ex.findJobs('class:fill state:queued', 10);
    expect(page).toMatchObject({ matched: 294, more: 284 });
    expect(page.jobs).toHaveLength(10);
    expect(page.jobs.every((j) => j.state === 'queued')).toBe(true);
  });

  it('finds ended jobs the history still holds, newest first, and says how many it holds', () => {
    const { ex, sim } = simRig({ workers: 2, policy: 'fifo', quantumMs: 10 });
    const a = ex.submitJob(oneTaskJob('batch', intermediates(1, spin(5))));
    const b = ex.submitJob(oneTaskJob('batch', intermediates(1, spin(60_000))));
    sim.runUntil(100 * MS);
    ex.cancelJob(b);
    const r = ex.findJobs('batch');
    expect(r.jobs.map((j) => [j.id, j.state])).toEqual([
      [b, 'cancelled'],
      [a, 'succeeded'],
    ]);
    expect(r.endedKept).toBe(2);
    expect(ex.findJobs('cancelled').jobs[0]).toMatchObject({ id: b, errorCode: 'CANCELLED' });
  });

  it('terms that no job can both match match nothing: every term must match (docs/jobs.md)', () => {
    // Before: the later id or state replaced the earlier (`state:succeeded running` listed the
    // running jobs, `id:1 id:2` job 2).
    const { ex, sim } = simRig({ workers: 2, policy: 'fifo', quantumMs: 10 });
    const a = ex.submitJob(oneTaskJob('batch', intermediates(1, spin(5))));
    const b = ex.submitJob(oneTaskJob('batch', intermediates(1, spin(60_000))));
    sim.runUntil(100 * MS);
    expect(ex.findJobs('state:succeeded running').matched).toBe(0);
    expect(ex.findJobs('running state:succeeded').matched).toBe(0);
    expect(ex.findJobs(`id:${a} id:${b}`).matched).toBe(0);
    // The same term twice is still that term.
    expect(ex.findJobs(`id:${b} ${b} running`).jobs.map((j) => j.id)).toEqual([b]);
  });

  it('a live job is queued until a split of it starts a quantum, then running, also back in the queue', () => {
    // Regression: every live job read `running` (2,000 runs on 2 workers listed as running while
    // the counters said 2 running), and `state:running` matched the queued ones too.
    const { ex, sim } = simRig({ workers: 1, policy: 'fifo', quantumMs: 10 });
    const a = ex.submitJob(oneTaskJob('a', intermediates(1, spin(60_000))));
    const b = ex.submitJob(oneTaskJob('b', intermediates(2, spin(60_000))));
    const c = ex.submitJob(oneTaskJob('c', intermediates(1, spin(60_000))));
    const state = (id: number) => ex.jobs(10).find((j) => j.id === id)?.state;
    expect([a, b, c].map(state)).toEqual(['running', 'queued', 'queued']);
    // a's first quantum ended and it waits again; b's first split runs now.
    sim.runUntil(15 * MS);
    expect([a, b, c].map(state)).toEqual(['running', 'running', 'queued']);
    expect(ex.counters).toMatchObject({ splitsRunning: 1, splitsQueued: 3 });
    expect(ex.findJobs('queued').jobs.map((j) => j.id)).toEqual([c]);
    expect(ex.findJobs('state:running').jobs.map((j) => j.id)).toEqual([a, b]);
    expect(ex.jobDetail(c).job.state).toBe('queued');
    expect(ex.jobRow(b)!.state).toBe('running');
    // The record's own state (the library's `jobState`) is still `running` for every live job.
    expect(ex.jobState(c)).toBe('running');
  });

  it('a job dispatched behind a busy worker (the pipeline) is queued until it starts there', async () => {
    const backend = new ThreadsBackend({ workers: 1 });
    const ex = new Executor(backend, { policy: 'fifo', quantumMs: 10_000 }, { pipeline: true });
    try {
      const long = ex.submitJob(oneTaskJob('c', intermediates(1, spin(60_000))));
      const behind = ex.submitJob(oneTaskJob('c', intermediates(1, spin(5))));
      expect(ex.queuedBehind()).toBe(1);
      const rows = ex.jobs(10);
      expect(rows.map((j) => [j.id, j.state])).toEqual([
        [long, 'running'],
        [behind, 'queued'],
      ]);
      expect(ex.findJobs('queued').jobs.map((j) => j.id)).toEqual([behind]);
      expect(ex.counters).toMatchObject({ splitsRunning: 1, splitsQueued: 1 });
    } finally {
      ex.cancelAll();
      await ex.drain();
      await backend.close();
    }
  }, 60_000);

  it('a bad query is a coded error naming the query', () => {
    const { ex } = simRig();
    for (const q of ['colour:red', 'state:asleep', 'id:x', 'class:']) {
      expect(schedLabErrorOf(() => ex.findJobs(q))).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'query',
      });
    }
  });
});

describe('jobDetail: each split’s timeline and the job’s priority changes', () => {
  it('a split that yields, blocks and is demoted shows waiting, running, blocked and a level change', () => {
    const { ex, sim } = simRig({ workers: 1, policy: 'mlfq', quantumMs: 500 });
    const work = spin(2500, { perCallNanos: 500 * MS, blockedNanosPerCall: 200 * MS });
    const id = ex.submitJob(oneTaskJob('io', intermediates(1, work)));
    sim.runUntil(60_000 * MS);
    const d = ex.jobDetail(id);
    expect(d.job).toMatchObject({ id, state: 'succeeded' });
    expect(d.complete).toBe(true);
    const split = d.splits[0]!;
    expect(split).toMatchObject({ state: 'succeeded', quanta: 5, retries: 0 });
    expect(kinds(split)).toEqual([
      'running',
      'blocked',
      'running',
      'blocked',
      'running',
      'blocked',
      'running',
      'blocked',
      'running',
    ]);
    const blocked = split.segments[1]!;
    expect(blocked.endNanos! - blocked.startNanos).toBe(200 * MS);
    expect(split.segments.at(-1)).toMatchObject({ outcome: 'finished', worker: 0 });
    // 1 s of scheduled time crosses Trino's first threshold: level 0 → 1.
    expect(d.changes).toContainEqual(expect.objectContaining({ kind: 'level', from: 0, to: 1 }));
  });

  it('a failing split shows its retries with their backoff, its code and the job’s outcome', () => {
    const { ex, sim } = simRig({ workers: 1, policy: 'fifo', quantumMs: 10 });
    const id = ex.submitJob(
      oneTaskJob('flaky', intermediates(1, spin(5, { failProbability: 1 })), { retries: 2 }),
    );
    sim.runUntil(10_000 * MS);
    const d = ex.jobDetail(id);
    expect(d.job).toMatchObject({ state: 'failed', errorCode: 'KERNEL_FAILED' });
    const split = d.splits[0]!;
    expect(split).toMatchObject({ state: 'failed', retries: 2, errorCode: 'KERNEL_FAILED' });
    expect(kinds(split).filter((k) => k === 'backoff')).toHaveLength(2);
    expect(split.segments.filter((s) => s.outcome === 'failed')).toHaveLength(3);
  });

  it('a live split’s stretch now is open; aging boosts and a reprioritize are listed', () => {
    const { ex, sim } = simRig({
      workers: 1,
      policy: 'priority',
      quantumMs: 100,
      aging: true,
      agingAfterMs: 100,
      agingStepMs: 100,
    });
    ex.submitJob({ ...oneTaskJob('hog', intermediates(1, spin(1000))), basePriority: 10 });
    const low = ex.submitJob({
      ...oneTaskJob('low', intermediates(2, spin(1000))),
      basePriority: 90,
    });
    sim.runUntil(500 * MS);
    const waiting = ex.jobDetail(low).splits[0]!;
    expect(waiting).toMatchObject({ state: 'queued' });
    expect(waiting.segments.at(-1)).toMatchObject({ kind: 'waiting', endNanos: null });
    ex.reprioritize(low, 80);
    sim.runUntil(3000 * MS);
    const d = ex.jobDetail(low);
    expect(d.changes[0]).toMatchObject({ kind: 'reprioritize', from: 90, to: 80, splitId: -1 });
    const aged = d.changes.find((c) => c.kind === 'aging');
    expect(aged).toMatchObject({ from: 80 });
    expect(aged!.to).toBeLessThan(80);
  });

  it('a failed one-split job’s detail has the reason whole, as the run’s rejection says it, and the thrown code', () => {
    // Regression: row, tooltip and detail all showed `split N: ` and the first 200 characters;
    // the thrown error's `code` and later lines never appeared.
    const message = `probe failed\n${'line two '.repeat(60)}\nthird line`;
    const failing = (end: QuantumEnd): QuantumEnd[] => [
      {
        ...end,
        outcome: 'failed',
        workNanos: 0,
        error: `Error: ${message}`,
        errorCode: 'KERNEL_FAILED',
        cause: { name: 'Error', message, code: 'E_PROBE' },
      },
    ];
    const sim = new RewritingSim({ workers: 2, seed: 1 }, failing);
    const ex = new Executor(sim, { workers: 2, policy: 'fifo', quantumMs: 10 });
    const one = ex.submitJob(oneTaskJob('one', intermediates(1, spin(5))));
    const two = ex.submitJob(oneTaskJob('two', intermediates(2, spin(5))));
    sim.runUntil(10_000 * MS);
    const detail = ex.jobDetail(one).job;
    expect(detail).toMatchObject({
      state: 'failed',
      errorCode: 'KERNEL_FAILED',
      causeCode: 'E_PROBE',
      error: `Error: ${message}`,
    });
    // The row (frames, findJobs) stays short, from the same start.
    const row = ex.jobs(10).find((j) => j.id === one)!;
    expect(row.error).toHaveLength(200);
    expect(row.error!.startsWith('Error: probe failed\n')).toBe(true);
    expect(row.causeCode).toBe('E_PROBE');
    expect(ex.findJobs(`id:${one}`).jobs[0]!.error).toBe(row.error);
    // A job of several splits still names the one that failed.
    const many = ex.jobDetail(two).job.error!;
    expect(many).toMatch(/^split \d+: Error: probe failed\n/);
    expect(many.endsWith('third line')).toBe(true);
  });

  it('a job’s whole reason is kept only while the history holds its row', () => {
    const failing = (end: QuantumEnd): QuantumEnd[] => [
      { ...end, outcome: 'failed', workNanos: 0, error: `Error: ${'x'.repeat(500)}` },
    ];
    const sim = new RewritingSim({ workers: 1, seed: 1 }, failing);
    const ex = new Executor(sim, { workers: 1, policy: 'fifo', quantumMs: 10 }, { recentJobs: 2 });
    const ids = [0, 1, 2].map(() => ex.submitJob(oneTaskJob('f', intermediates(1, spin(5)))));
    sim.runUntil(10_000 * MS);
    expect(schedLabErrorOf(() => ex.jobDetail(ids[0]!))).toMatchObject({ code: 'UNKNOWN_ID' });
    for (const id of ids.slice(1)) expect(ex.jobDetail(id).job.error).toHaveLength(507);
    const book = (ex as unknown as { book: { wholeErrors: Map<number, string> } }).book;
    expect([...book.wholeErrors.keys()]).toEqual(ids.slice(1));
  });

  it('an unknown job is UNKNOWN_ID; a trail too small for the job’s start says so', () => {
    const sim = new SimBackend({ workers: 1, seed: 1 });
    const ex = new Executor(
      sim,
      { workers: 1, policy: 'fifo', quantumMs: 1 },
      { jobTrailCapacity: 16 },
    );
    expect(schedLabErrorOf(() => ex.jobDetail(99))).toMatchObject({
      code: 'UNKNOWN_ID',
      field: 'jobId',
    });
    const id = ex.submitJob(oneTaskJob('long', intermediates(1, spin(100))));
    sim.runUntil(100 * MS);
    const d = ex.jobDetail(id);
    expect(d.complete).toBe(false);
    expect(d.splits[0]!.segments.length).toBeLessThanOrEqual(16);
    expect(d.trailSinceNanos).toBeGreaterThan(0);
  });
});
