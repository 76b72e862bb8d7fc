// `await ctx.yield()` on real worker threads: a user module's call is suspended in its worker when
// its quantum is used up, and continued there at its split's next quantum (the backend pins the
// split to that worker). Orders of spans are asserted, never times.
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeIndex } from '../../../shared/lib/outcomes.ts';
import type { SplitWork } from '../backend.ts';
import { fixture } from '../threads/fixtures/driver.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { leaves, oneTaskJob } from './testing.ts';

let open: ThreadsBackend[] = [];
afterEach(async () => {
  await Promise.all(open.map((backend) => backend.close()));
  open = [];
});

async function rig(workers: number, policy: 'fifo' | 'fair' = 'fair') {
  const backend = new ThreadsBackend({ workers });
  open.push(backend);
  await backend.ready();
  const ex = new Executor(backend, { workers, policy, quantumMs: 2 }, { pipeline: true });
  const ends: JobEnd[] = [];
  ex.onJobEnd((end) => ends.push(end));
  return { backend, ex, ends };
}

/** Shared words the fixture writes (yielding.mjs): calls, steps, finally ran, hold, holding. */
const words = () => new Int32Array(new SharedArrayBuffer(5 * 4));

const stepper = (w: Int32Array, label: string, steps?: number, stepMs = 1): SplitWork => ({
  kernel: fixture('yielding.mjs', 'stepper'),
  input: steps === undefined ? { words: w, label, stepMs } : { words: w, label, steps, stepMs },
  totalNanos: 1,
});

/** Resolves once `done()` holds, polled every few ms; fails after 20 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in 20 s');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The spans recorded so far, as [job, worker, outcome index]. */
function spans(ex: Executor): [number, number, number][] {
  const { columns } = ex.spans.read(0);
  return columns.job.map((job, i) => [job, columns.worker[i]!, columns.outcome[i]!]);
}

/** The workers job `id`'s quanta ran on. */
function workersOf(ex: Executor, id: number): Set<number> {
  return new Set(
    spans(ex)
      .filter(([job]) => job === id)
      .map(([, worker]) => worker),
  );
}

describe('await ctx.yield() on the threads backend', { timeout: 60_000 }, () => {
  it.each(['fair', 'fifo'] as const)(
    '%s time-shares ONE worker between two tenants: quanta interleave, each call continues',
    async (policy) => {
      const { ex, ends } = await rig(1, policy);
      const [a, b] = [words(), words()];
      const ja = ex.submitJob({
        ...oneTaskJob('a', leaves(1, stepper(a, 'a', 12, 3))),
        tenant: 'a',
      });
      const jb = ex.submitJob({
        ...oneTaskJob('b', leaves(1, stepper(b, 'b', 12, 3))),
        tenant: 'b',
      });
      await ex.drain();
      const byJob = new Map(ends.map((end) => [end.jobId, end]));
      expect(byJob.get(ja)).toMatchObject({ state: 'succeeded', result: { label: 'a', done: 12 } });
      expect(byJob.get(jb)).toMatchObject({ state: 'succeeded', result: { label: 'b', done: 12 } });
      // One call each, continued across its quanta (a restarted call would count again).
      expect([a[0], b[0]]).toEqual([1, 1]);
      const order = spans(ex).filter(([job]) => job === ja || job === jb);
      const yielded = outcomeIndex('yielded');
      // A step (3 ms) outlasts the quantum (2 ms): every `await ctx.yield()` ended a quantum.
      expect(order.filter(([job, , o]) => job === ja && o === yielded)).toHaveLength(12);
      expect(order.filter(([job, , o]) => job === jb && o === yielded)).toHaveLength(12);
      const jobs = order.map(([job]) => job);
      // Interleaved, not one after the other: each ran a quantum before the other's last.
      expect(jobs.indexOf(jb)).toBeLessThan(jobs.lastIndexOf(ja));
      expect(jobs.indexOf(ja)).toBeLessThan(jobs.lastIndexOf(jb));
      // FIFO puts a yielded split behind the other: strict turns, whatever the quanta measured.
      if (policy === 'fifo')
        expect(jobs).toEqual(Array.from({ length: 26 }, (_, i) => [ja, jb][i % 2]));
    },
  );

  it('on two workers each split stays on the worker holding its call', async () => {
    const { ex, ends } = await rig(2);
    const all = Array.from({ length: 4 }, () => words());
    const ids = all.map((w, i) =>
      ex.submitJob({ ...oneTaskJob('s', leaves(1, stepper(w, `s${i}`, 8, 3))), tenant: `t${i}` }),
    );
    await ex.drain();
    expect(ends.map((end) => end.state)).toEqual(Array(4).fill('succeeded'));
    expect(all.map((w) => w[0])).toEqual([1, 1, 1, 1]);
    for (const id of ids) expect(workersOf(ex, id).size).toBe(1);
  });

  it('a cancel while suspended ends the split cancelled and frees its call in the worker', async () => {
    const { backend, ex, ends } = await rig(1);
    const [a, b] = [words(), words()];
    const ja = ex.submitJob({ ...oneTaskJob('a', leaves(1, stepper(a, 'a'))), tenant: 'a' });
    const jb = ex.submitJob({ ...oneTaskJob('b', leaves(1, stepper(b, 'b'))), tenant: 'b' });
    await until(() => a[1]! >= 2 && b[1]! >= 2);
    // B holds the only worker: A's call can only be suspended now.
    Atomics.store(b, 3, 1);
    await until(() => b[4] === 1);
    expect(ex.cancelJob(ja)).toBe(true);
    Atomics.store(b, 3, 0);
    await until(() => a[2] === 1); // A's `finally` ran: its await rejected, the call is gone
    expect(a[0]).toBe(1);
    const stepsB = b[1]!;
    await until(() => b[1]! > stepsB + 2); // B goes on alone
    ex.cancelJob(jb);
    await until(() => b[2] === 1);
    await ex.drain();
    const byJob = new Map(ends.map((end) => [end.jobId, end.state]));
    expect([byJob.get(ja), byJob.get(jb)]).toEqual(['cancelled', 'cancelled']);
    expect(backend.idleWorkers()).toEqual([0]);
  });

  it('lowering the worker count keeps a retiring worker until the calls suspended there end', async () => {
    const { backend, ex, ends } = await rig(2);
    const all = Array.from({ length: 4 }, () => words());
    const ids = all.map((w, i) =>
      ex.submitJob({ ...oneTaskJob('s', leaves(1, stepper(w, `s${i}`, 10, 3))), tenant: `t${i}` }),
    );
    // Every call has taken a step and yielded: two of them are suspended on worker 1.
    await until(() => all.every((w) => w[1]! >= 1));
    ex.configure({ workers: 1 });
    await ex.drain();
    // Before, retiring worker 1 at once failed the runs suspended there with WORKER_LOST.
    expect(ends.map((end) => end.state)).toEqual(Array(4).fill('succeeded'));
    expect(all.map((w) => w[0])).toEqual([1, 1, 1, 1]); // each call continued, never restarted
    for (const id of ids) expect(workersOf(ex, id).size).toBe(1);
    // Then it retired: one thread is left.
    const pool = (backend as unknown as { workers: { all(): Iterable<unknown> } }).workers;
    await until(() => [...pool.all()].length === 1);
    expect(backend.idleWorkers()).toEqual([0]);
  });

  it('lowering the worker count while a call is in its first quantum there keeps the call it suspends', async () => {
    const { backend, ex, ends } = await rig(2);
    const all = [words(), words()];
    for (const w of all) w[3] = 1; // each holds its worker after its first step
    all.forEach((w, i) =>
      ex.submitJob({ ...oneTaskJob('s', leaves(1, stepper(w, `s${i}`, 5))), tenant: `t${i}` }),
    );
    await until(() => all.every((w) => w[4] === 1)); // one on each worker, in its first quantum
    ex.configure({ workers: 1 });
    for (const w of all) w[3] = 0; // let go: each quantum, used up, ends suspended in ctx.yield()
    await ex.drain();
    // Before, the worker beyond the count retired as that quantum ended, before the call it had
    // just suspended was recorded, and the run failed WORKER_LOST.
    expect(ends.map((end) => end.state)).toEqual(['succeeded', 'succeeded']);
    expect(all.map((w) => w[0])).toEqual([1, 1]); // each call continued, never restarted
    const pool = (backend as unknown as { workers: { all(): Iterable<unknown> } }).workers;
    await until(() => [...pool.all()].length === 1);
  });

  it('a call cancelled on a retiring worker runs its finally blocks before the worker goes', async () => {
    const { backend, ex, ends } = await rig(2);
    const all = [words(), words()];
    const ids = all.map((w, i) =>
      ex.submitJob({ ...oneTaskJob('s', leaves(1, stepper(w, `s${i}`))), tenant: `t${i}` }),
    );
    await until(() => all.every((w) => w[1]! >= 2));
    ex.configure({ workers: 1 });
    const steps = all.map((w) => w[1]!);
    await until(() => all.every((w, i) => w[1]! > steps[i]! + 1)); // both go on
    for (const id of ids) ex.cancelJob(id);
    await ex.drain();
    expect(ends.map((end) => end.state)).toEqual(['cancelled', 'cancelled']);
    await until(() => all.every((w) => w[2] === 1)); // each call's `finally` ran
    const pool = (backend as unknown as { workers: { all(): Iterable<unknown> } }).workers;
    await until(() => [...pool.all()].length === 1);
  });

  it('a worker lost while a call is suspended there fails its split with WORKER_LOST', async () => {
    const { ex, ends } = await rig(1, 'fifo');
    const a = words();
    // Endless: only the lost worker ends it (a restart would run on and never end).
    const ja = ex.submitJob(
      oneTaskJob('a', leaves(1, stepper(a, 'a', undefined, 3)), { retries: 0 }),
    );
    await until(() => a[1]! >= 1);
    const exits: SplitWork = { kernel: fixture('failing.mjs', 'exits'), totalNanos: 1 };
    ex.submitJob(oneTaskJob('x', leaves(1, exits)));
    await ex.drain();
    const end = ends.find((e) => e.jobId === ja);
    expect(end).toMatchObject({ state: 'failed', errorCode: 'WORKER_LOST' });
    expect(a[0]).toBe(1); // never called again from scratch on the fresh worker
  });
});
