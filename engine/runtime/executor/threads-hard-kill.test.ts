import { afterEach, describe, expect, it } from 'vitest';
import type { EngineConfigPatch } from '../../../shared/config.ts';
import type { SplitWork } from '../backend.ts';
import { fixture } from '../threads/fixtures/driver.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { leaves, oneTaskJob, spin } from './testing.ts';

// The executor over real worker threads with user modules that never give their worker back:
// `hardKillAfterMs` kills them, the split fails or retries with QUANTUM_OVERRUN_KILLED, every
// other job finishes and every job ends exactly once. Bounds are generous: the machine is busy.

let open: ThreadsBackend[] = [];
afterEach(async () => {
  await Promise.all(open.map((backend) => backend.close()));
  open = [];
});

async function rig(config: EngineConfigPatch) {
  const backend = new ThreadsBackend({ workers: 2 });
  open.push(backend);
  await backend.ready();
  const ex = new Executor(backend, { workers: 2, policy: 'fifo', retryBackoffMs: 1, ...config });
  const ends: JobEnd[] = [];
  ex.onJobEnd((end) => ends.push(end));
  return { ex, ends };
}

function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => (done() ? resolve() : void setTimeout(poll, 5));
    poll();
  });
}

const stuck = (exportName: string): SplitWork => ({
  kernel: fixture('stuck.mjs', exportName),
  totalNanos: 1,
});

describe('executor over ThreadsBackend: the hard limit', { timeout: 90_000 }, () => {
  it('a stuck split is killed and retried, then fails with QUANTUM_OVERRUN_KILLED; every other job finishes; each ends once', async () => {
    const { ex, ends } = await rig({ quantumMs: 20, hardKillAfterMs: 300 });
    const looping = ex.submitJob(oneTaskJob('stuck', leaves(1, stuck('loops')), { retries: 1 }));
    const hanging = ex.submitJob(oneTaskJob('stuck', leaves(1, stuck('neverSettles'))));
    const others = Array.from({ length: 6 }, () =>
      ex.submitJob(oneTaskJob('other', leaves(2, spin(10)))),
    );
    await until(() => ex.counters.live === 0);
    const byJob = new Map(ends.map((e) => [e.jobId, e]));
    expect(ends).toHaveLength(8);
    expect(byJob.size).toBe(8);
    for (const id of [looping, hanging]) {
      expect(byJob.get(id)).toMatchObject({
        state: 'failed',
        errorCode: 'QUANTUM_OVERRUN_KILLED',
        error: expect.stringMatching(/past hardKillAfterMs/),
      });
    }
    for (const id of others) expect(byJob.get(id)?.state).toBe('succeeded');
    // Killed twice (one retry) plus once: three kills, each one an event on the timeline.
    expect(ex.counters.retries).toBe(1);
    const kills = ex.events.since(0).filter((e) => e.kind === 'hard-kill');
    expect(kills).toHaveLength(3);
    expect(ex.workers().map((w) => w.state)).toEqual(['idle', 'idle']);
  });

  it('cancelJob of a split stuck in a loop frees its worker within the limit', async () => {
    // Non-preemptive PRIO runs a split to completion: only the cancel can take the worker back.
    const { ex } = await rig({ policy: 'priority', hardKillAfterMs: 300 });
    const job = ex.submitJob(oneTaskJob('stuck', leaves(1, stuck('loops'))));
    await until(() => ex.workers().some((w) => w.jobId === job));
    expect(ex.cancelJob(job)).toBe(true);
    expect(ex.jobState(job)).toBe('cancelled');
    await until(() => ex.counters.splitsRunning === 0);
    expect(ex.workers().every((w) => w.state !== 'running')).toBe(true);
    const after = ex.submitJob(oneTaskJob('after', leaves(2, spin(5))));
    await until(() => ex.jobState(after) !== 'running');
    expect(ex.jobState(after)).toBe('succeeded');
  });

  it('hardKillAfterMs is checked (coded error naming it) and changes live', async () => {
    const { ex, ends } = await rig({ quantumMs: 20, hardKillAfterMs: 600_000 });
    expect(() => ex.configure({ hardKillAfterMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'hardKillAfterMs' }),
    );
    const job = ex.submitJob(oneTaskJob('stuck', leaves(1, stuck('neverSettles'))));
    await until(() => ex.workers().some((w) => w.jobId === job));
    ex.configure({ hardKillAfterMs: 200 });
    await until(() => ends.length === 1);
    expect(ends[0]).toMatchObject({ jobId: job, errorCode: 'QUANTUM_OVERRUN_KILLED' });
  });
});
