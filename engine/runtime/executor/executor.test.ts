import { describe, expect, it, vi } from 'vitest';
import { SchedLabError } from '../../../shared/errors.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor } from './executor.ts';
import { ExecJob } from './records.ts';
import { SplitState, checkSplitTransition } from './lifecycle.ts';
import { MS, intermediates, leaves, oneTaskJob, simRig, spin } from './testing.ts';

describe('Executor on the simulator', () => {
  it('runs a job to completion, one span per quantum, counters balanced', () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10, policy: 'fifo' });
    const id = ex.submitJob(oneTaskJob('a', leaves(4, spin(25))));
    sim.runUntilIdle();
    expect(ends.map((e) => [e.jobId, e.state])).toEqual([[id, 'succeeded']]);
    expect(ex.spans.total).toBe(12); // 4 splits × ceil(25 / 10) quanta
    expect(ends[0]!.scheduledNanos).toBe(100 * MS);
    expect(ex.counters).toMatchObject({ submitted: 1, succeeded: 1, live: 0, quanta: 12 });
    expect(sim.now()).toBe(50 * MS); // 100 ms of work on 2 workers, no idle gaps
  });

  it('ends a job of many tasks once each ended, in time linear in its tasks', () => {
    // A scan of every task per task ending made 40,000 empty tasks take 10 s to submit (and
    // froze a console that was sent them): counted here by the task reads it takes.
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10 });
    const taskEnds: number[] = [];
    ex.onTaskEnd((e) => taskEnds.push(e.index));
    const reads = vi.spyOn(ExecJob.prototype, 'taskAt');
    const n = 2_000;
    const empty = ex.submitJob({
      class: 'many',
      tasks: Array.from({ length: n }, () => ({ splits: [] })),
    });
    expect(reads.mock.calls.length).toBeLessThan(10 * n);
    reads.mockRestore();
    expect(ends.map((e) => [e.jobId, e.state])).toEqual([[empty, 'succeeded']]);
    expect(taskEnds).toEqual([...Array(n).keys()]);
    // Tasks with work end as their splits do; the job with its last one.
    const busy = ex.submitJob({
      class: 'some',
      tasks: Array.from({ length: 3 }, () => ({
        splits: intermediates(1, spin(5 * (1 + Math.random()))),
      })),
    });
    expect(ends.length).toBe(1);
    sim.runUntilIdle();
    expect(ends.map((e) => [e.jobId, e.state])).toEqual([
      [empty, 'succeeded'],
      [busy, 'succeeded'],
    ]);
  });

  it('PRIO is non-preemptive by default: a task runs to completion; preemptive slices it', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'priority' });
    ex.submitJob(oneTaskJob('a', intermediates(1, spin(50))));
    sim.runUntilIdle();
    expect(ex.spans.total).toBe(1);
    ex.configure({ preemptive: true });
    ex.submitJob(oneTaskJob('a', intermediates(1, spin(50))));
    sim.runUntilIdle();
    expect(ex.spans.total).toBe(1 + 5);
    expect(ex.counters.overrunNanos).toBe(0);
  });

  it('an illegal split transition is a coded error', () => {
    expect(() => checkSplitTransition(7, SplitState.succeeded, SplitState.queued)).toThrowError(
      expect.objectContaining({ code: 'ILLEGAL_TRANSITION' }),
    );
    expect(() => checkSplitTransition(7, SplitState.waiting, SplitState.running)).toThrow(
      SchedLabError,
    );
  });

  it('cancels queued and running splits; running ones stop at once, none runs afterwards', () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 100, policy: 'fifo' });
    const id = ex.submitJob(oneTaskJob('scan', intermediates(10, spin(1000))));
    sim.runUntil(150 * MS);
    expect(ex.counters.splitsRunning).toBe(2);
    expect(ex.cancelJob(id)).toBe(true);
    expect(ex.cancelJob(id)).toBe(false);
    expect(ends).toEqual([expect.objectContaining({ jobId: id, state: 'cancelled' })]);
    sim.runUntilIdle();
    const spans = ex.spans.read(0).columns;
    const cancelled = spans.outcome.filter((o) => o === 4).length;
    expect(cancelled).toBe(2);
    expect(Math.max(...spans.end)).toBe(150 * MS);
    expect(ex.counters).toMatchObject({
      cancelled: 1,
      live: 0,
      splitsRunning: 0,
      splitsQueued: 0,
      splitsCancelled: 10,
    });
    expect(ex.backend.idleWorkers()).toEqual([0, 1]);
  });

  it('retries a failing split with growing backoff, then fails the job with the reason', () => {
    const { sim, ex, ends } = simRig({
      workers: 1,
      quantumMs: 10,
      retryBackoffMs: 100,
      retryBackoffMultiplier: 2,
    });
    ex.submitJob(oneTaskJob('flaky', leaves(1, spin(5, { failProbability: 1 })), { retries: 2 }));
    sim.runUntilIdle();
    const s = ex.spans.read(0).columns;
    expect(s.count).toBe(3);
    expect(s.start[1]! - s.end[0]!).toBe(100 * MS);
    expect(s.start[2]! - s.end[1]!).toBe(200 * MS);
    expect(ends[0]).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('injected failure'),
    });
    expect(ex.counters).toMatchObject({ failed: 1, retries: 2, splitsFailed: 1 });
  });

  it('a failure within the retry budget still succeeds', () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10, retryBackoffMs: 1 }, 42);
    ex.submitJob(
      oneTaskJob('flaky', leaves(20, spin(5, { failProbability: 0.3 })), { retries: 30 }),
    );
    sim.runUntilIdle();
    expect(ends[0]!.state).toBe('succeeded');
    expect(ex.counters.retries).toBeGreaterThan(0);
  });

  it('rejects a job beyond maxQueued and counts it; addSplits beyond it is QUEUE_FULL', () => {
    const { sim, ex, ends } = simRig({ workers: 1, maxQueued: 10 });
    const a = ex.submitJob({ class: 'a', tasks: [{ splits: leaves(8, spin(5)), open: true }] });
    const b = ex.submitJob(oneTaskJob('b', leaves(5, spin(5))));
    expect(ex.jobState(b)).toBe('rejected');
    expect(ends).toEqual([expect.objectContaining({ jobId: b, state: 'rejected' })]);
    const [task] = ex.taskIds(a);
    expect(() => ex.addSplits(task!, leaves(5, spin(1)))).toThrowError(
      expect.objectContaining({ code: 'QUEUE_FULL', field: 'maxQueued' }),
    );
    ex.closeTask(task!);
    sim.runUntilIdle();
    expect(ex.counters).toMatchObject({
      submitted: 2,
      succeeded: 1,
      rejected: 1,
      live: 0,
      rejectedSplits: 5,
    });
  });

  it('an open task waits for closeTask and takes top-ups meanwhile', () => {
    const { sim, ex, ends } = simRig({ workers: 2, quantumMs: 10 });
    const id = ex.submitJob({ class: 'leaf', tasks: [{ splits: leaves(2, spin(5)), open: true }] });
    sim.runUntilIdle();
    expect(ends).toEqual([]);
    const [task] = ex.taskIds(id);
    ex.addSplits(task!, leaves(3, spin(5)));
    ex.closeTask(task!);
    sim.runUntilIdle();
    expect(ends).toEqual([expect.objectContaining({ jobId: id, state: 'succeeded', splits: 5 })]);
  });

  it('blocked splits free their worker and come back after the blocked time', () => {
    const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 10, policy: 'fifo' });
    ex.submitJob(
      oneTaskJob(
        'io',
        intermediates(1, spin(20, { perCallNanos: 5 * MS, blockedNanosPerCall: 50 * MS })),
      ),
    );
    ex.submitJob(oneTaskJob('cpu', intermediates(1, spin(30))));
    sim.runUntilIdle();
    const s = ex.spans.read(0).columns;
    // The cpu job runs while io sleeps: it finishes first, long before io's 4 calls + 3 sleeps.
    expect(ends.map((e) => e.class)).toEqual(['cpu', 'io']);
    expect(s.outcome.filter((o) => o === 1)).toHaveLength(3);
    expect(ends[1]!.endNanos).toBe(5 * MS + 3 * 55 * MS);
  });

  it('configure validates the whole patch, names the field, changes nothing on error', () => {
    const { ex } = simRig();
    const before = ex.config;
    expect(() => ex.configure({ quantumMs: 5, levelTimeMultiplier: 1 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'levelTimeMultiplier' }),
    );
    expect(() => ex.configure({ levelThresholdsMs: [0, 10, 5, 60, 300] })).toThrowError(
      expect.objectContaining({
        field: 'levelThresholdsMs[2]',
        message: 'levelThresholdsMs[2] must be > the previous threshold',
      }),
    );
    expect(() => ex.configure({ bogus: 1 })).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    expect(ex.config).toBe(before);
    ex.configure({ levelTimeMultiplier: 3, workers: 2 });
    expect(ex.events.since(0).map((e) => e.kind + ' ' + e.detail)).toEqual([
      'workers workers: 4 → 2',
      'config levelTimeMultiplier: 2 → 3',
    ]);
    expect(ex.backend.workerCount).toBe(2);
  });
});

describe('bounded recording', () => {
  it('the span ring interns at most min(1024, capacity) class names; later ones share (other)', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 1, policy: 'fifo' });
    for (let j = 0; j < 1100; j++)
      ex.submitJob(oneTaskJob(`class-${j}`, intermediates(1, spin(1))));
    sim.runUntilIdle();
    const read = ex.spans.read(0);
    expect(ex.spans.total).toBe(1100);
    expect(read.columns.count).toBe(1100);
    const names = read.columns.names;
    expect(names).toHaveLength(1024);
    expect(names.at(-1)).toBe('(other)');
    const small = new Executor(new SimBackend({ workers: 1 }), {}, { spanCapacity: 16 });
    for (let j = 0; j < 100; j++) small.submitJob(oneTaskJob(`c${j}`, intermediates(1, spin(1))));
    expect(small.spans.internClass('another')).toBe(small.spans.internClass('(other)'));
    expect(small.spans.internClass('(other)')).toBe(15);
  });
});

describe('requeue waits', () => {
  it('keeps, per class, the longest gap from a yield to the next quantum; sleeps do not count', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'fifo', preemptive: true });
    // One worker, two 30 ms splits round-robin: each yield waits one 10 ms quantum of the other.
    ex.submitJob(oneTaskJob('scan', intermediates(2, spin(30))));
    // A split that blocks for 500 ms between calls: it wakes when the worker is idle, so its
    // gaps are all sleep and no queue wait.
    ex.submitJob(
      oneTaskJob(
        'io',
        intermediates(1, spin(20, { perCallNanos: 10 * MS, blockedNanosPerCall: 500 * MS })),
      ),
    );
    sim.runUntilIdle();
    const waits = new Map(ex.maxRequeueWaits().map((w) => [w.cls, w.nanos]));
    expect(waits.get('scan')).toBe(20 * MS); // behind the other scan split and the io call
    expect(waits.get('io') ?? 0).toBe(0);
  });

  it('a split woken from blocked waits from its wake-up to its next quantum, like a yield', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'fifo', preemptive: true });
    ex.submitJob(oneTaskJob('scan', intermediates(2, spin(30))));
    // Runs 20–30 ms, blocks 5 ms, wakes at 35 ms behind the queued scan split (dispatched
    // 40–50 ms), so it waits 35 → 50 ms: 15 ms of queue wait, none of its 5 ms sleep.
    ex.submitJob(
      oneTaskJob(
        'io',
        intermediates(1, spin(20, { perCallNanos: 10 * MS, blockedNanosPerCall: 5 * MS })),
      ),
    );
    sim.runUntilIdle();
    const waits = new Map(ex.maxRequeueWaits().map((w) => [w.cls, w.nanos]));
    expect(waits.get('io')).toBe(15 * MS);
    expect(waits.get('scan')).toBe(20 * MS);
  });

  it('a retried split waits from the end of its backoff to its next quantum', () => {
    const { sim, ex } = simRig({
      workers: 1,
      quantumMs: 10,
      policy: 'fifo',
      preemptive: true,
      retryBackoffMs: 5,
    });
    ex.submitJob(oneTaskJob('scan', intermediates(1, spin(30))));
    // Fails its first call at 10 ms (always: probability 1, so it has no retries left after
    // one), retries at 15 ms behind the scan split running 10–20 ms: 5 ms of queue wait.
    ex.submitJob(
      oneTaskJob('flaky', intermediates(1, spin(10, { failProbability: 1 })), { retries: 1 }),
    );
    sim.runUntilIdle();
    const waits = new Map(ex.maxRequeueWaits().map((w) => [w.cls, w.nanos]));
    expect(waits.get('flaky')).toBe(5 * MS);
  });
});
