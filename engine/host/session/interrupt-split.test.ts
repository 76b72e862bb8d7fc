// The on-demand interrupt (Presto's interruptRunawaySplits / Trino's interrupt of stuck splits,
// here one split at a time on request): the `interruptSplit` command stops a running split — on
// threads by terminating its worker through the hard limit's path — and the split fails with
// INTERRUPTED; a split that is not running is a coded error naming `splitId`.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../../runtime/threads/fixtures/driver.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { Executor, type JobEnd } from '../../runtime/executor/index.ts';
import { intermediates, MS, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import type { Dispatch } from '../../runtime/backend.ts';
import { SimBackend } from '../../runtime/sim/sim-backend.ts';
import { Session } from './session.ts';

describe('interruptSplit (simulator)', () => {
  it('stops a running split now: its job fails with INTERRUPTED, the worker takes the next split', async () => {
    const s = new Session({ config: { workers: 1, quantumMs: 5000, policy: 'fifo' } });
    const ends: JobEnd[] = [];
    s.executor.onJobEnd((e) => ends.push(e));
    const runaway = s.executor.submitJob(oneTaskJob('runaway', intermediates(1, spin(60_000))));
    const next = s.executor.submitJob(oneTaskJob('next', intermediates(1, spin(10))));
    s.advance(100);
    const answer = await s.handleCommand({ type: 'interruptSplit', splitId: 1, id: 'i1' });
    expect(answer).toEqual({ ok: true, id: 'i1', splitId: 1, jobId: runaway, workerId: 0 });
    const frames = s.runToIdle();
    expect(ends.find((e) => e.jobId === runaway)).toMatchObject({
      state: 'failed',
      errorCode: 'INTERRUPTED',
    });
    expect(ends.find((e) => e.jobId === next)?.state).toBe('succeeded');
    const events = frames.flatMap((f) => f.events);
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'interrupt', detail: 'split 1 (job 1) on worker 0' }),
    );
    // Charged what it ran until the interrupt, not its whole quantum.
    expect(s.executor.jobs().find((j) => j.id === runaway)?.scheduledNanos).toBe(100e6);
  });

  it('a split that is not running, or no split at all, is UNKNOWN_ID naming splitId', async () => {
    const s = new Session({ config: { workers: 1, quantumMs: 50, policy: 'fifo' } });
    s.executor.submitJob(oneTaskJob('a', intermediates(2, spin(200))));
    s.advance(10);
    for (const splitId of [2, 99]) {
      expect(await s.handleCommand({ type: 'interruptSplit', splitId })).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_ID', field: 'splitId' },
      });
    }
    expect(await s.handleCommand({ type: 'interruptSplit', splitId: -1 })).toMatchObject({
      ok: false,
      error: { code: 'BAD_MESSAGE', field: 'splitId' },
    });
  });

  it('a quantum that had just ended is not interrupted, nor the split the worker took next', () => {
    // On threads, `interrupt` first delivers an end the worker had published: the named split
    // was requeued and the worker took the next one, which the interrupt then killed in its place
    // (the named job succeeded, an untouched one failed INTERRUPTED). Modelled here: a backend
    // whose end for the quantum is already out when the interrupt comes.
    class Published extends SimBackend {
      readonly onWorker: number[] = [];
      override start(d: Dispatch): void {
        this.onWorker[d.workerId] = d.splitId;
        super.start(d);
      }
      interrupt(workerId: number, why: string, splitId: number): boolean {
        this.runUntil(this.now() + 10 * MS); // the end published before the interrupt
        if (this.onWorker[workerId] !== splitId) return false;
        this.cancel(splitId);
        return why.length > 0;
      }
    }
    const sim = new Published({ workers: 1 });
    const ex = new Executor(sim, { workers: 1, quantumMs: 10, policy: 'fifo' });
    const ends: JobEnd[] = [];
    ex.onJobEnd((e) => ends.push(e));
    const named = ex.submitJob(oneTaskJob('named', intermediates(1, spin(30))));
    const other = ex.submitJob(oneTaskJob('other', intermediates(1, spin(30))));
    sim.runUntil(5 * MS);
    expect(() => ex.interruptSplit(1)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_ID', field: 'splitId' }),
    );
    sim.runUntilIdle();
    expect(ends.map((e) => [e.jobId, e.state])).toEqual([
      [named, 'succeeded'],
      [other, 'succeeded'],
    ]);
  });

  it('a job with retries left retries the interrupted split', () => {
    const s = new Session({ config: { workers: 1, quantumMs: 5000, retryBackoffMs: 1 } });
    const ends: JobEnd[] = [];
    s.executor.onJobEnd((e) => ends.push(e));
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(300)), { retries: 1 }));
    s.advance(50);
    s.executor.interruptSplit(1);
    s.runToIdle();
    expect(ends).toEqual([expect.objectContaining({ state: 'succeeded' })]);
    expect(s.executor.counters.retries).toBe(1);
  });
});

describe('interruptSplit on real threads', { timeout: 90_000 }, () => {
  let backend: ThreadsBackend | null = null;
  afterEach(async () => {
    await backend?.close();
    backend = null;
  });

  it('a user module that never yields is stopped through the hard-kill path; the worker takes new work', async () => {
    backend = new ThreadsBackend({ workers: 1 });
    await backend.ready();
    // A hard limit of 10 minutes: only the interrupt can stop the loop within the test.
    const config = { workers: 1, quantumMs: 20, policy: 'fifo', hardKillAfterMs: 600_000 } as const;
    const ex = new Executor(backend, config);
    const ends: JobEnd[] = [];
    ex.onJobEnd((e) => ends.push(e));
    const loops = { kernel: fixture('stuck.mjs', 'loops'), totalNanos: 1 };
    const stuck = ex.submitJob(oneTaskJob('stuck', intermediates(1, loops)));
    await until(() => ex.workers()[0]?.state === 'running' && ex.workers()[0]?.splitId === 1);
    expect(ex.interruptSplit(1)).toEqual({ jobId: stuck, workerId: 0 });
    await until(() => ends.length === 1);
    expect(ends[0]).toMatchObject({ jobId: stuck, state: 'failed', errorCode: 'INTERRUPTED' });
    const after = ex.submitJob(oneTaskJob('after', intermediates(1, spin(5))));
    await until(() => ends.length === 2);
    expect(ends[1]).toMatchObject({ jobId: after, state: 'succeeded' });
    expect(ex.events.since(0).map((e) => e.kind)).toContain('interrupt');
  });
});

function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => (done() ? resolve() : void setTimeout(poll, 5));
    poll();
  });
}
