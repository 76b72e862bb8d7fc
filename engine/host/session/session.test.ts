import { describe, expect, it, vi } from 'vitest';
import type { CommandError, Frame } from '../../../shared/protocol.ts';
import { MS, intermediates, leaves, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

const job = (cls = 'a', n = 2, ms = 20) => oneTaskJob(cls, leaves(n, spin(ms)));

async function fails(s: Session, msg: unknown): Promise<CommandError['error']> {
  const r = await s.handleCommand(msg);
  expect(r.ok).toBe(false);
  return (r as CommandError).error;
}

describe('Session commands', () => {
  it('applies valid commands and echoes the id', async () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10 } });
    expect(
      await s.handleCommand({ type: 'configure', id: 7, config: { levelTimeMultiplier: 3 } }),
    ).toMatchObject({
      ok: true,
      id: 7,
      config: { levelTimeMultiplier: 3 },
    });
    expect(await s.handleCommand({ type: 'setPolicy', policy: 'fair' })).toMatchObject({
      ok: true,
      policy: 'fair',
    });
    expect(await s.handleCommand({ type: 'setWorkers', workers: 3 })).toMatchObject({
      ok: true,
      workers: 3,
    });
    const sub = await s.handleCommand({ type: 'submitJob', job: job() });
    expect(sub).toMatchObject({ ok: true, jobId: 1, taskIds: [1] });
    expect(await s.handleCommand({ type: 'reprioritize', jobId: 1, priority: 5 })).toMatchObject({
      ok: true,
    });
    expect(await s.handleCommand({ type: 'pause' })).toMatchObject({ ok: true, paused: true });
    expect(await s.handleCommand({ type: 'resume' })).toMatchObject({ ok: true, paused: false });
    expect(await s.handleCommand({ type: 'cancelJob', jobId: 1 })).toMatchObject({ ok: true });
    const snap = await s.handleCommand({ type: 'snapshot' });
    expect(snap).toMatchObject({
      ok: true,
      snapshot: { type: 'snapshot', policies: ['mlfq', 'priority', 'fifo', 'fair'] },
    });
    const kinds = s.executor.events.since(0).map((e) => e.kind);
    expect(kinds).toEqual([
      'config',
      'policy',
      'workers',
      'reprioritize',
      'pause',
      'resume',
      'cancel',
    ]);
  });

  it('every error path is coded and names the field', async () => {
    const s = new Session();
    expect(await fails(s, 'hello')).toMatchObject({ code: 'BAD_MESSAGE', field: 'type' });
    expect(await fails(s, { config: {} })).toMatchObject({ code: 'BAD_MESSAGE', field: 'type' });
    expect(await fails(s, { type: 'explode' })).toMatchObject({
      code: 'UNKNOWN_COMMAND',
      field: 'type',
    });
    expect(await fails(s, { type: 'toString' })).toMatchObject({
      code: 'UNKNOWN_COMMAND',
      field: 'type',
    });
    // The name is echoed clipped: a megabyte-long one came back whole, a cheap way to make a
    // server hold what a client does not read.
    const long = await fails(s, { type: 'x'.repeat(1 << 20) });
    expect(long).toMatchObject({ code: 'UNKNOWN_COMMAND' });
    expect(long.message.length).toBeLessThan(200);
    expect(await fails(s, { type: 'configure', config: { levelTimeMultiplier: 1 } })).toMatchObject(
      {
        code: 'INVALID_CONFIG',
        field: 'levelTimeMultiplier',
      },
    );
    expect(
      await fails(s, { type: 'configure', config: { levelThresholdsMs: [0, 5, 5, 9, 10] } }),
    ).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'levelThresholdsMs[2]',
      message: 'levelThresholdsMs[2] must be > the previous threshold',
    });
    expect(await fails(s, { type: 'configure', config: { nope: 1 } })).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'nope', // the misspelt key itself (it named the whole config)
      message: 'config has unknown field nope',
    });
    expect(await fails(s, { type: 'configure' })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'config',
    });
    expect(await fails(s, { type: 'setPolicy', policy: 'lottery' })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'policy',
    });
    expect(await fails(s, { type: 'setWorkers', workers: 0 })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'workers',
    });
    expect(await fails(s, { type: 'setWorkers', workers: 1.5 })).toMatchObject({
      field: 'workers',
    });
    expect(await fails(s, { type: 'submitJob', job: { class: 'a', tasks: [] } })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'job.tasks',
    });
    expect(
      await fails(s, {
        type: 'submitJob',
        job: {
          class: 'a',
          tasks: [{ splits: [{ kind: 'leaf', work: { kernel: 'spin', totalNanos: -1 } }] }],
        },
      }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'job.tasks[0].splits[0].work.totalNanos',
      message: 'job.tasks[0].splits[0].work.totalNanos must be >= 0',
    });
    expect(await fails(s, { type: 'cancelJob', jobId: 'x' })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'jobId',
    });
    expect(await fails(s, { type: 'cancelJob', jobId: 99 })).toMatchObject({
      code: 'UNKNOWN_ID',
      field: 'jobId',
    });
    expect(await fails(s, { type: 'reprioritize', jobId: 1, priority: 101 })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'priority',
    });
    expect(await fails(s, { type: 'reprioritize', jobId: 99, priority: 1 })).toMatchObject({
      code: 'UNKNOWN_ID',
      field: 'jobId',
    });
    expect(await fails(s, { type: 'runPreset', preset: 'x' })).toMatchObject({
      code: 'UNKNOWN_PRESET',
      field: 'preset',
    });
    expect(await fails(s, { type: 'loadWorkload', workload: {} })).toMatchObject({
      code: 'INVALID_WORKLOAD',
      field: 'workload',
    });
    expect(await fails(s, { type: 'setSpeed', speed: 0 })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'speed',
    });
    // A misspelt field is refused naming it, not dropped (`limt` returned 100 rows).
    expect(await fails(s, { type: 'findJobs', query: '', limt: 1 })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'limt',
    });
    expect(await fails(s, { type: 'pause', extra: true })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'extra',
    });
    // One inside the job is the job's fault, like every other bad job field.
    expect(
      await fails(s, {
        type: 'submitJob',
        job: { class: 'a', tasks: [{ splits: [] }], priority: 3 },
      }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'job.priority' });
    // A `__proto__` key beside a graph setting is refused as it is alone (it was applied).
    const proto = JSON.parse(
      '{"type":"configure","config":{"__proto__":{"quantumMs":5},"graphPolicy":"fifo"}}',
    ) as unknown;
    expect(await fails(s, proto)).toMatchObject({ code: 'INVALID_CONFIG', field: '__proto__' });
    expect(s.executor.config.quantumMs).not.toBe(5);
    // Nothing above changed the engine.
    expect(s.executor.events.total).toBe(0);
    expect(s.executor.counters.submitted).toBe(0);
  });

  it('refuses an oversized job or weights by their count first, and an open task', async () => {
    const s = new Session();
    // 20,000 bad splits: the count is what is wrong first (each split was checked before it).
    const bad = { kind: 'leaf', work: { kernel: 'spin', totalNanos: -1 } };
    expect(
      await fails(s, {
        type: 'submitJob',
        job: { class: 'a', tasks: [{ splits: Array.from({ length: 20_000 }, () => bad) }] },
      }),
    ).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'job.tasks',
      message: 'job.tasks must hold at most 10000 splits in all, got 20000',
    });
    expect(
      await fails(s, {
        type: 'submitJob',
        job: { class: 'a', tasks: Array.from({ length: 10_001 }, () => ({ splits: [] })) },
      }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'job.tasks' });
    // An open task would wait for a closeTask no command sends: a job that never ends.
    expect(
      await fails(s, {
        type: 'submitJob',
        job: { class: 'a', tasks: [{ splits: [], open: true }] },
      }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'job.tasks[0].open' });
    const weights = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`t${i}`, 0]));
    const tooMany = await fails(s, { type: 'setTenantWeights', weights });
    expect(tooMany.message).toContain('must name at most 10000 tenants, got 20000');
    expect(s.executor.counters.submitted).toBe(0);
  });

  it('a full queue rejects a submitted job with QUEUE_FULL', async () => {
    const s = new Session({ config: { maxQueued: 3 } });
    expect(await fails(s, { type: 'submitJob', job: job('a', 4) })).toMatchObject({
      code: 'QUEUE_FULL',
      field: 'job',
    });
    expect(s.executor.counters).toMatchObject({ submitted: 1, rejected: 1 });
  });

  it('a tenant at maxLivePerTenant has its job rejected, saying whose limit', async () => {
    const s = new Session({ config: { maxLivePerTenant: 1 } });
    const acme = { ...job('a', 1), tenant: 'acme' };
    expect(await s.handleCommand({ type: 'submitJob', job: acme })).toMatchObject({ ok: true });
    expect(await fails(s, { type: 'submitJob', job: acme })).toMatchObject({
      code: 'QUEUE_FULL',
      field: 'job',
      message: 'job rejected: maxLivePerTenant 1 reached by tenant acme',
    });
    const globex = { ...job('a', 1), tenant: 'globex' };
    expect(await s.handleCommand({ type: 'submitJob', job: globex })).toMatchObject({ ok: true });
  });

  it('hands loadWorkload and runPreset to the installed workload handler', async () => {
    const s = new Session({
      workloads: {
        runPreset: (name, _o, ctx) => ({
          workload: `${name} ${ctx.executor.submitJob(job(name))}`,
        }),
        loadWorkload: () => {
          throw Object.assign(new Error('bad'), {});
        },
      },
    });
    expect(await s.handleCommand({ type: 'runPreset', preset: 'demo' })).toMatchObject({
      ok: true,
      result: { workload: 'demo 1' },
    });
    expect(s.executor.events.since(0).at(-1)).toMatchObject({
      kind: 'workload',
      detail: 'preset demo',
    });
    expect(await fails(s, { type: 'loadWorkload', workload: 1 })).toMatchObject({ message: 'bad' });
  });
});

describe('Session frames', () => {
  it('frames per virtual interval: counters balance, spans arrive once, utilization and percentiles', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'fifo' }, frameHz: 10 });
    for (let j = 0; j < 10; j++) s.executor.submitJob(job(j % 2 ? 'x' : 'y', 3, 40));
    s.executor.configure({ levelTimeMultiplier: 3 });
    const frames: Frame[] = s.runToIdle();
    expect(frames.length).toBe(6); // 1200 ms of work on 2 workers = 600 ms = 6 frames at 10 Hz
    expect(frames.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const f of frames) {
      const c = f.counters;
      expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
    }
    expect(frames[0]!.utilization).toBe(1);
    expect(frames.reduce((n, f) => n + f.spans.count, 0)).toBe(s.executor.spans.total);
    expect(frames[0]!.events).toEqual([expect.objectContaining({ kind: 'config' })]);
    expect(frames[1]!.events).toEqual([]);
    const last = frames.at(-1)!;
    expect(last.counters).toMatchObject({ submitted: 10, succeeded: 10, live: 0 });
    expect(Object.keys(last.latency.byClass)).toEqual(['x', 'y']);
    expect(last.latency.byClass['x']!.count).toBe(5);
    expect(last.latency.byBand['p40-59']!.count).toBe(10);
    expect(last.wait.byClass['y']!.count).toBe(60); // one wait per quantum: 15 splits × 4
    expect(last.latency.byClass['y']!.max).toBeGreaterThan(0);
    // Columnar spans with interned class names.
    const sp = frames[0]!.spans;
    expect(sp.names.sort()).toEqual(['x', 'y']);
    expect(sp.cls.every((i) => i < sp.names.length)).toBe(true);
    expect(JSON.parse(JSON.stringify(last))).toEqual(last);
  });

  it('a slow reader gets dropped spans counted, never an unbounded backlog', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 1 }, executor: { spanCapacity: 64 } });
    s.executor.submitJob(oneTaskJob('a', intermediates(4, spin(100))));
    (s.backend as import('../../runtime/sim/index.ts').SimBackend).runUntilIdle();
    const f = s.frame();
    expect(f.spans.count).toBe(64);
    expect(f.spansDropped).toBe(400 - 64);
    const snap = s.snapshot();
    expect(snap.spans.count).toBe(64);
    expect(snap.frame).toMatchObject({ seq: 1, spans: { count: 0 }, events: [] });
  });

  it('a snapshot takes nothing away from the frames other clients get', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10 } });
    s.executor.submitJob(job('a', 4, 30));
    s.executor.pause();
    (s.backend as import('../../runtime/sim/index.ts').SimBackend).runUntil(50 * MS);
    s.executor.resume();
    (s.backend as import('../../runtime/sim/index.ts').SimBackend).runUntil(100 * MS);
    const snap = s.snapshot();
    expect(snap.frame.counters.submitted).toBe(1);
    expect(snap.events.map((e) => e.kind)).toEqual(['pause', 'resume']);
    const f = s.frame();
    expect(f.seq).toBe(1);
    expect(f.spans.count).toBe(snap.spans.count);
    expect(f.events.map((e) => e.kind)).toEqual(['pause', 'resume']);
  });

  it('Jain fairness is 1 when live jobs are served alike and drops when one is starved', () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10, policy: 'fifo' } });
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(1000))));
    s.executor.submitJob(oneTaskJob('b', intermediates(1, spin(1000))));
    const [f] = s.advance(100);
    expect(f!.fairness.jobs).toBe(2);
    expect(f!.fairness.jain).toBeGreaterThan(0.99);
    s.executor.setPolicy('priority');
    s.executor.reprioritize(1, 0);
    const later = s.advance(500).at(-1)!;
    expect(later.fairness.jain).toBeLessThan(0.9);
    expect(MS).toBe(1e6);
  });
});

describe('Session alarms', () => {
  it('raises starvation when a split waits past the threshold, and urgent-wait on a slow top band', () => {
    const s = new Session({
      config: { workers: 1, quantumMs: 10, policy: 'priority', aging: false },
      alarms: { starvationMs: 300, urgentP95WaitMs: 50 },
    });
    s.executor.submitJob(oneTaskJob('low', intermediates(1, spin(10)), { basePriority: 100 }));
    for (let j = 0; j < 40; j++) {
      s.executor.submitJob(oneTaskJob('urgent', intermediates(1, spin(20)), { basePriority: 0 }));
    }
    const first = s.advance(100).at(-1)!;
    expect(first.alarms).toEqual([expect.objectContaining({ kind: 'urgent-wait' })]);
    const later = s.advance(300).at(-1)!;
    expect(later.oldestWaitMs).toBeGreaterThan(300);
    expect(later.alarms!.map((a) => a.kind)).toEqual(['urgent-wait', 'starvation']);
    const done = s.runToIdle().at(-1)!;
    expect(done.oldestWaitMs).toBe(0);
    expect(done.alarms!.map((a) => a.kind)).toEqual(['urgent-wait']);
  });
});

describe('Session live loop', () => {
  it('on the sim, emits frameHz frames per second and advances virtual time at speed × real time', () => {
    vi.useFakeTimers();
    try {
      const s = new Session({ config: { workers: 2, quantumMs: 10 }, frameHz: 10, speed: 3 });
      const frames: Frame[] = [];
      s.onFrame((f) => frames.push(f));
      s.executor.submitJob(job('a', 2, 5000));
      s.start();
      expect(s.running).toBe(true);
      vi.advanceTimersByTime(1000);
      expect(frames).toHaveLength(10);
      expect(frames.at(-1)!.timeNanos).toBe(3000 * MS);
      s.executor.pause();
      vi.advanceTimersByTime(500);
      expect(frames).toHaveLength(15);
      expect(frames.at(-1)!.timeNanos).toBe(3000 * MS);
      expect(frames.at(-1)!.paused).toBe(true);
      s.stop();
      vi.advanceTimersByTime(1000);
      expect(frames).toHaveLength(15);
    } finally {
      vi.useRealTimers();
    }
  });
});
