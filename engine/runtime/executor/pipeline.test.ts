// The executor's pipeline (ExecutorOptions.pipeline) on real worker threads: a split queued behind
// a busy worker's quantum runs exactly once, can be cancelled before it starts, and moves to a
// worker that goes idle rather than wait behind a long quantum.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../threads/fixtures/driver.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { intermediates, oneTaskJob, spanProblems, spin } from './testing.ts';

let backend: ThreadsBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

function rig(workers: number, config: object): { ex: Executor; ends: JobEnd[] } {
  backend = new ThreadsBackend({ workers });
  const ex = new Executor(backend, config, { pipeline: true });
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  return { ex, ends };
}

function ended(ends: JobEnd[], id: number): Promise<JobEnd> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const look = () => {
      const end = ends.find((e) => e.jobId === id);
      if (end !== undefined) resolve(end);
      else if (Date.now() > deadline) reject(new Error(`job ${id} did not end`));
      else setTimeout(look, 5);
    };
    look();
  });
}

describe('executor pipeline on real worker threads', () => {
  it('queues a batch of short splits behind a busy worker once their kernel is known short; each runs once', async () => {
    const { ex, ends } = rig(2, { policy: 'mlfq', quantumMs: 10 });
    const inc = fixture('tasks.mjs', 'inc');
    const job = (x: number) =>
      ex.submitJob({
        class: 'c',
        tasks: [
          { splits: [{ kind: 'intermediate', work: { kernel: inc, input: x, totalNanos: 0 } }] },
        ],
      });
    await ended(ends, job(0)); // the kernel has run once: its quanta are known to be short
    const ids: number[] = [];
    for (let i = 1; i <= 3000; i++) ids.push(job(i));
    // One split queued behind each busy worker was the most before batching.
    let most = ex.queuedBehind();
    const deadline = Date.now() + 60_000;
    while (ends.length < ids.length + 1 && Date.now() < deadline) {
      most = Math.max(most, ex.queuedBehind());
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(most).toBeGreaterThan(2);
    await ended(ends, ids.at(-1)!);
    expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(ids.length + 1);
    const results = new Map(ends.map((e) => [e.jobId, e.result]));
    ids.forEach((id, i) => expect(results.get(id)).toBe(i + 2)); // inc(x) = x + 1, once each
    expect(ex.counters.staleEnds).toBe(0);
  });

  it('under non-preemptive priority commits at most a quantum of known work: waiting runs go by priority', async () => {
    // Before: the look-ahead was the dispatch quantum, a whole run (1e15 ns) here, so every
    // waiting run of a known kernel was committed behind the busy worker in arrival order:
    // priorities 90 and 0 ran interleaved, and aging never applied.
    const { ex, ends } = rig(1, { policy: 'priority', quantumMs: 10 });
    const run = (cls: string, basePriority: number, ms: number) =>
      ex.submitJob(oneTaskJob(cls, intermediates(1, spin(ms)), { basePriority }));
    await ended(ends, run('warm', 50, 20)); // the spin kernel is known: ~20 ms a run
    const busy = run('busy', 50, 200);
    await new Promise((r) => setTimeout(r, 20)); // it runs now
    const low = [1, 2, 3, 4].map(() => run('low', 90, 20));
    const urgent = [1, 2, 3, 4].map(() => run('urgent', 0, 20));
    await ended(ends, busy);
    await Promise.all([...low, ...urgent].map((id) => ended(ends, id)));
    const order = ends.slice(2).map((e) => e.class);
    // One low run may have been committed behind the busy one (a quantum's worth): then every
    // urgent run before the other low ones.
    expect(order.slice(order.indexOf('urgent'), order.indexOf('urgent') + 4)).toEqual([
      'urgent',
      'urgent',
      'urgent',
      'urgent',
    ]);
    expect(order.indexOf('urgent')).toBeLessThanOrEqual(1);
  }, 60_000);

  it('queues behind busy workers, and through resizes runs every split once', async () => {
    const { ex, ends } = rig(2, { policy: 'mlfq', quantumMs: 2 });
    let queuedBehind = 0;
    for (let j = 0; j < 40; j++) ex.submitJob(oneTaskJob('c', intermediates(2, spin(6))));
    queuedBehind = Math.max(queuedBehind, ex.queuedBehind());
    ex.setWorkers(1);
    while (ends.length < 10) {
      queuedBehind = Math.max(queuedBehind, ex.queuedBehind());
      await new Promise((r) => setTimeout(r, 2));
    }
    ex.setWorkers(3);
    await ex.drain();
    expect(queuedBehind).toBeGreaterThan(0);
    expect(ends).toHaveLength(40);
    expect(new Set(ends.map((e) => e.jobId)).size).toBe(40);
    expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
    expect(ex.counters.staleEnds).toBe(0);
    const check = spanProblems(ex.spans.read(0).columns);
    expect(check.problems).toEqual([]);
    expect(check.finished).toBe(80);
  }, 60_000);

  it('a split queued behind a running quantum is cancelled before it runs a quantum', async () => {
    const { ex, ends } = rig(1, { policy: 'fifo', quantumMs: 10_000 });
    const long = ex.submitJob(oneTaskJob('c', intermediates(1, spin(60_000))));
    const behind = ex.submitJob(oneTaskJob('c', intermediates(1, spin(5))));
    expect(ex.queuedBehind()).toBe(1);
    expect(ex.cancelJob(behind)).toBe(true);
    const end = await ended(ends, behind);
    expect(end).toMatchObject({ state: 'cancelled', scheduledNanos: 0 });
    expect(ex.queuedBehind()).toBe(0);
    ex.cancelJob(long);
    await ex.drain();
    expect(ex.counters.staleEnds).toBe(0);
  }, 60_000);

  it("a split queued behind a running quantum is shown queued, still waiting, in its job's detail", async () => {
    const { ex } = rig(1, { policy: 'fifo', quantumMs: 10_000 });
    const long = ex.submitJob(oneTaskJob('c', intermediates(1, spin(60_000))));
    const behind = ex.submitJob(oneTaskJob('c', intermediates(1, spin(5))));
    expect(ex.queuedBehind()).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    const waiting = ex.jobDetail(behind).splits[0]!;
    expect(waiting.state).toBe('queued');
    expect(waiting.segments.at(-1)).toMatchObject({ kind: 'waiting', endNanos: null });
    expect(waiting.segments.some((g) => g.kind === 'running')).toBe(false);
    expect(waiting.waitNanos).toBeGreaterThan(0);
    expect(ex.jobDetail(long).splits[0]!.state).toBe('running');
    ex.cancelJob(behind);
    ex.cancelJob(long);
    await ex.drain();
  }, 60_000);

  it('a worker that goes idle takes a split queued behind a long quantum elsewhere', async () => {
    const { ex, ends } = rig(2, { policy: 'fifo', quantumMs: 10_000 });
    const long = ex.submitJob(oneTaskJob('c', intermediates(1, spin(60_000))));
    ex.submitJob(oneTaskJob('c', intermediates(1, spin(5))));
    const behind = ex.submitJob(oneTaskJob('c', intermediates(1, spin(5))));
    expect(ex.queuedBehind()).toBe(1);
    expect(await ended(ends, behind)).toMatchObject({ state: 'succeeded' });
    // Only the two short splits have ended a quantum: the long one still runs its first.
    expect(ex.counters.quanta).toBe(2);
    expect(ex.jobState(long)).toBe('running');
    ex.cancelJob(long);
    await ex.drain();
  }, 60_000);
});
