import { afterEach, describe, expect, it } from 'vitest';
import { Executor } from '../../runtime/executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { fixture } from '../../runtime/threads/fixtures/driver.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { FrameBuilder } from './frame-builder.ts';
import { LatencyStats } from './stats.ts';

// A worker stuck in a user module that loops without yielding, seen through frames: its time
// counts as it passes (busy, overrun), a runaway split and a stuck-worker alarm show while it is
// stuck, and the hard limit ends it. Real worker threads; bounds generous (the machine is busy).

let backend: ThreadsBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const MS = 1e6;

function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => (done() ? resolve() : void setTimeout(poll, 5));
    poll();
  });
}

describe('frames while a worker is stuck', { timeout: 90_000 }, () => {
  it('show its overrun as it grows, a runaway split and a stuck-worker alarm, until it is killed', async () => {
    backend = new ThreadsBackend({ workers: 2 });
    await backend.ready();
    const ex = new Executor(backend, {
      workers: 2,
      quantumMs: 20,
      runawayAfterMs: 200,
      hardKillAfterMs: 1500,
    });
    const frames = new FrameBuilder(ex, new LatencyStats());
    const work = { kernel: fixture('stuck.mjs', 'loops'), totalNanos: 1 };
    const job = ex.submitJob(oneTaskJob('stuck', leaves(1, work)));
    await until(() => ex.workers().some((w) => w.jobId === job));
    const since = ex.workers().find((w) => w.jobId === job)!.sinceNanos!;
    frames.next();

    // 120 ms after dispatch: past the quantum, not yet a runaway. The overrun already counts.
    // Busy time counts from the worker's own start, a little after `since` (the dispatch), so
    // the wait leaves 20 ms over the 100 ms asserted.
    await until(() => ex.now() > since + 120 * MS);
    const early = frames.next();
    expect(early.counters.overrunNanos).toBeGreaterThan(50 * MS);
    expect(early.counters.busyNanos).toBeGreaterThan(100 * MS);
    expect(early.utilization).toBeGreaterThan(0.4);

    // Past quantum + runawayAfterMs: a runaway split and the alarm, in the next frame.
    await until(() => ex.now() > since + 300 * MS);
    const stuck = frames.next();
    expect(stuck.runawaySplits).toEqual([
      expect.objectContaining({ jobId: job, overrunMs: expect.any(Number) }),
    ]);
    expect(stuck.runawaySplits![0]!.overrunMs).toBeGreaterThan(200);
    expect(stuck.alarms).toContainEqual({
      kind: 'stuck-worker',
      message: expect.stringMatching(/overran the quantum by more than 200 ms/),
    });
    expect(stuck.counters.overrunNanos).toBeGreaterThan(early.counters.overrunNanos);

    // Killed past hardKillAfterMs: no runaway left, the kill counted, no time taken back.
    await until(() => ex.jobState(job) !== 'running');
    const after = frames.next();
    expect(ex.jobState(job)).toBe('failed');
    expect(after.runawaySplits).toEqual([]);
    expect(after.alarms?.map((a) => a.kind)).not.toContain('stuck-worker');
    expect(after.counters.killedQuanta).toBe(1);
    expect(after.counters.runawayQuanta).toBe(1);
    expect(after.counters.overrunNanos).toBeGreaterThan(1500 * MS);
    expect(after.counters.overrunNanos).toBeGreaterThanOrEqual(stuck.counters.overrunNanos);
    expect(after.events.map((e) => e.kind)).toContain('hard-kill');
  });
});

describe('frames on threads', { timeout: 60_000 }, () => {
  it("carry the CPU time the workers' threads used next to their wall time (Linux)", async () => {
    backend = new ThreadsBackend({ workers: 2 });
    await backend.ready();
    const ex = new Executor(backend, { workers: 2, quantumMs: 20 });
    const frames = new FrameBuilder(ex, new LatencyStats());
    const job = ex.submitJob(oneTaskJob('spin', leaves(4, spin(30))));
    await until(() => ex.jobState(job) !== 'running');
    expect(ex.jobState(job)).toBe('succeeded');
    const f = frames.next();
    if (process.platform !== 'linux') {
      console.log(`no per-thread CPU clock on ${process.platform}: frames carry no cpuNanos`);
      expect(f.counters.cpuNanos).toBeUndefined();
      return;
    }
    // 120 ms of spinning: CPU measured, never more than the wall time it ran in.
    expect(f.counters.cpuNanos).toBeGreaterThan(0);
    expect(f.counters.cpuNanos!).toBeLessThanOrEqual(f.counters.busyNanos * 1.01 + 0.5 * MS);
  });
});
