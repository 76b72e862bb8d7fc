import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../threads/fixtures/driver.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { leaves, oneTaskJob } from './testing.ts';

// An error a user module throws from a timer after its split succeeded: on one worker, so the
// next split there is running when it lands. That split must not fail; the event names the
// module's split and job.

let backend: ThreadsBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => (done() ? resolve() : void setTimeout(poll, 5));
    poll();
  });
}

describe('executor over ThreadsBackend: late errors', { timeout: 60_000 }, () => {
  it('an error thrown 50 ms after a split succeeded fails no innocent split; the event names its job', async () => {
    backend = new ThreadsBackend({ workers: 1 });
    await backend.ready();
    const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 1000 });
    const ends: JobEnd[] = [];
    ex.onJobEnd((end) => ends.push(end));
    const late = {
      kernel: fixture('stuck.mjs', 'throwsAfterSuccess'),
      input: { afterMs: 50, tag: 'late' },
      totalNanos: 1,
    };
    const sleeps = { kernel: fixture('stuck.mjs', 'sleeps'), input: { ms: 400 }, totalNanos: 1 };
    const guilty = ex.submitJob(oneTaskJob('late', leaves(1, late)));
    const innocent = ex.submitJob(oneTaskJob('innocent', leaves(1, sleeps)));
    await until(() => ends.length === 2);
    expect(ends.map((e) => [e.jobId, e.state])).toEqual([
      [guilty, 'succeeded'],
      [innocent, 'succeeded'],
    ]);
    const events = ex.events.since(0).filter((e) => e.kind === 'late-error');
    expect(events).toHaveLength(1);
    expect(events[0]!.detail).toMatch(
      new RegExp(
        `^job ${guilty}: uncaught error on worker 0 from split \\d+ \\(module .*#throwsAfterSuccess\\)`,
      ),
    );
    expect(events[0]!.detail).toMatch(
      /late error from a finished split \(late\); no split was failed$/,
    );
  });
});
