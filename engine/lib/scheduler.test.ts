// The library on real worker threads: results, cooperation, cancelling, errors, tenants, closing.
import { getEventListeners } from 'node:events';
import { move } from 'piscina';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRow } from '../../shared/protocol.ts';
import { Pool } from './pool.ts';
import { Scheduler } from './scheduler.ts';

const TASKS = new URL('./fixtures/tasks.mjs', import.meta.url);
const task = (name?: string) =>
  name === undefined ? { module: TASKS } : { module: TASKS, export: name };

/** Resolves with the error a promise rejects with (fails the test if it resolves). */
async function failure(
  p: Promise<unknown>,
): Promise<{ code: string; field?: string; message: string; cause?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('Scheduler.run on real worker threads', () => {
  let s: Scheduler;
  beforeAll(async () => {
    s = new Scheduler({ workers: 2, policy: 'mlfq', quantumMs: 5 });
    await s.ready();
  });
  afterAll(() => s.close());

  it('runs a default export, a named export (by path or URL) and a built-in kernel', async () => {
    expect(await s.run(task(), 21)).toBe(42);
    expect(await s.run({ module: TASKS.pathname, export: 'work' }, { ms: 1, label: 'w' })).toBe(
      'w',
    );
    expect(await s.run('spin', { ms: 2 })).toBeUndefined();
  });

  it('runs a module that also exports a function named then (its namespace is a thenable)', async () => {
    // `import()` adopted the namespace as a promise that never settled: each run hung its worker
    // until the hard kill, which blamed the run's function (QUANTUM_OVERRUN_KILLED).
    const module = new URL('./fixtures/then-export.mjs', import.meta.url);
    expect(await s.run({ module }, 3)).toBe('default:3');
    expect(await s.run({ module, export: 'then' })).toBeUndefined();
  });

  it('a task that yields is cut into quanta and resumes with its state', async () => {
    const before = s.stats().quanta;
    expect(await s.run(task('quanta'), { left: 4 })).toBe(4);
    expect(s.stats().quanta - before).toBe(4);
  });

  it('a result with a yield among other keys is the result, not a yield', async () => {
    // Before: the function ran again with 0.05 as its input, and the price was lost.
    const before = s.stats().quanta;
    expect(await s.run(task('bond'), 0.05)).toEqual({ yield: 0.05, price: 100 / 1.05 });
    expect(s.stats().quanta - before).toBe(1);
  });

  it('an AbortSignal cancels a running run, which frees its worker', async () => {
    const controller = new AbortController();
    const running = failure(s.run(task('forever'), 0, { signal: controller.signal }));
    await until(() => s.stats().runs.running > 0);
    controller.abort(new Error('client went away'));
    const error = await running;
    expect(error).toMatchObject({ code: 'CANCELLED', field: 'signal' });
    expect(error.message).toMatch(/client went away/);
    expect(await s.run(task(), 1)).toBe(2);
  });

  it('a reason that cannot be made text still cancels CANCELLED, before the call or during it', async () => {
    // `String(Object.create(null))` throws: it threw in the abort listener and ended the process.
    const before = new AbortController();
    before.abort(Object.create(null));
    const refused = await failure(s.run(task(), 1, { signal: before.signal }));
    expect(refused).toMatchObject({ code: 'CANCELLED', field: 'signal' });
    const during = new AbortController();
    const running = failure(s.run(task('forever'), 0, { signal: during.signal }));
    await until(() => s.stats().runs.running > 0);
    const reason = Object.create(null) as object;
    during.abort(reason);
    const error = await running;
    expect(error).toMatchObject({ code: 'CANCELLED', field: 'signal', cause: reason });
    expect(error.message).toMatch(/cannot be made text/);
  });

  it('an AbortSignal cancels a queued run; an aborted one is refused at the door', async () => {
    const stop = new AbortController();
    const busy = [0, 1].map(() => failure(s.run(task('forever'), 0, { signal: stop.signal })));
    await until(() => s.stats().runs.running === 2);
    const queued = new AbortController();
    const waiting = failure(s.run(task(), 1, { signal: queued.signal }));
    expect(s.stats().runs.queued).toBeGreaterThan(0);
    queued.abort();
    expect(await waiting).toMatchObject({ code: 'CANCELLED' });
    stop.abort();
    for (const b of busy) expect(await b).toMatchObject({ code: 'CANCELLED' });
    expect(await failure(s.run(task(), 1, { signal: queued.signal }))).toMatchObject({
      code: 'CANCELLED',
    });
  });

  it('one AbortSignal shared by many runs: one listener, no warning, and its abort cancels those not ended', async () => {
    // Before: a listener per run, so Node warned past ten (MaxListenersExceededWarning).
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController();
      const { signal } = shared;
      const quick = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.run(task(), i, { signal })),
      );
      expect(quick).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i));
      expect(getEventListeners(signal, 'abort')).toHaveLength(0); // the ended let go of it
      const busy = [0, 1].map(() => failure(s.run(task('forever'), 0, { signal })));
      await until(() => s.stats().runs.running === 2);
      const waiting = Array.from({ length: 30 }, () => failure(s.run(task(), 1, { signal })));
      expect(getEventListeners(signal, 'abort')).toHaveLength(1);
      shared.abort(new Error('shutting down'));
      for (const error of await Promise.all([...busy, ...waiting])) {
        expect(error).toMatchObject({ code: 'CANCELLED', field: 'signal' });
        expect(error.message).toMatch(/shutting down/);
      }
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted a turn later
      expect(warnings).toEqual([]);
      expect(await s.run(task(), 1)).toBe(2);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('timeoutMs cancels a run that does not end in time', async () => {
    const error = await failure(s.run(task('forever'), 0, { timeoutMs: 50 }));
    expect(error).toMatchObject({ code: 'TIMEOUT', field: 'timeoutMs' });
  });

  it("a run's row in the console says whether its timeout or its signal cancelled it", async () => {
    // Both read `cancelled by request`, `CANCELLED`, as a cancel from the console does.
    const one = new Scheduler({ workers: 1 });
    try {
      await failure(one.run(task('forever'), 0, { class: 'timed', timeoutMs: 50 }));
      const ac = new AbortController();
      const aborted = failure(one.run(task('forever'), 0, { class: 'aborted', signal: ac.signal }));
      setTimeout(() => ac.abort(new Error('client went away')), 50);
      await aborted;
      const rows = (one as unknown as { executor: { jobs(): JobRow[] } }).executor.jobs();
      const row = (cls: string) => rows.find((r) => r.class === cls);
      expect(row('timed')).toMatchObject({
        state: 'cancelled',
        errorCode: 'TIMEOUT',
        error: 'the run did not end within timeoutMs 50',
      });
      expect(row('aborted')).toMatchObject({
        state: 'cancelled',
        errorCode: 'CANCELLED',
        error: 'the run was aborted: Error: client went away',
      });
    } finally {
      await one.close({ cancel: true });
    }
  });

  it('a cancelled run whose call never returns counts cancelled, not running or queued', async () => {
    const one = new Scheduler({ workers: 1 });
    try {
      const error = await failure(one.run(task('hang'), 0, { timeoutMs: 50 }));
      expect(error.code).toBe('TIMEOUT');
      // Its worker still runs the call (it ignores its signal) for the grace; the run ended.
      expect(one.stats().runs).toMatchObject({ submitted: 1, cancelled: 1, running: 0, queued: 0 });
    } finally {
      await one.close({ cancel: true });
    }
  });

  // Before: the call kept the only worker until it returned (a minute here) or hardKillAfterMs
  // passed, so the next run waited that long; Piscina ends the worker at once.
  it('an abort of a call that never yields ends its worker soon after: the next run is served', async () => {
    const one = new Scheduler({ workers: 1, hardKillAfterMs: 600_000 });
    try {
      const controller = new AbortController();
      const running = failure(one.run(task('busy'), 60_000, { signal: controller.signal }));
      await until(() => one.stats().runs.running > 0);
      controller.abort();
      expect(await running).toMatchObject({ code: 'CANCELLED', field: 'signal' });
      // 20 s: far above the 100 ms grace and a fresh worker's start, far below the call's minute.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, 20_000, 'still waiting after 20 s')));
      expect(await Promise.race([one.run(task(), 21), late])).toBe(42);
      clearTimeout(timer);
    } finally {
      await one.close({ cancel: true });
    }
  });

  it('a task that throws rejects with KERNEL_FAILED and its message; the pool lives on', async () => {
    const error = await failure(s.run(task('boom')));
    expect(error.code).toBe('KERNEL_FAILED');
    expect(error.message).toMatch(/boom from a task/);
    expect(await s.run(task(), 2)).toBe(4);
  });

  it("a task's error of megabytes rejects its run with its first 2,000 characters", async () => {
    // Before: a 10 MB message reached the rejection (and every report on the way) whole.
    const e = await failure(s.run(task('throwsHuge'), 10_000_000));
    expect(e.code).toBe('KERNEL_FAILED');
    expect(e.message.length).toBeLessThan(2_100);
    expect(e.message).toMatch(/m…$/);
    const cause = e.cause as Error;
    expect(cause.message).toHaveLength(2_000);
    expect(cause.stack!.length).toBeLessThanOrEqual(8_000);
  });

  it("a task's error is the rejection's cause: its name, message, code and the worker's stack", async () => {
    const error = await failure(s.run(task('badWidth'), 7));
    expect(error).toMatchObject({
      code: 'KERNEL_FAILED',
      message: 'the run failed: TypeError: bad width 7',
    });
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).toMatchObject({
      name: 'TypeError',
      message: 'bad width 7',
      code: 'E_WIDTH',
    });
    expect((error.cause as Error).stack).toMatch(/badWidth .*tasks\.mjs/);
    // A thrown value that is not an Error is told in the message; there is no cause to give.
    const text = await failure(s.run(task('throwsText')));
    expect(text.message).toBe('the run failed: plain text');
    expect(text.cause).toBeUndefined();
    // A plain object with a message is told by its message and code, not as [object Object].
    const plain = await failure(s.run(task('throwsPlain')));
    expect(plain.message).toBe('the run failed: Error: plain message');
    expect(plain.cause).toMatchObject({ name: 'Error', message: 'plain message', code: 'E_PLAIN' });
  });

  it('a thrown value that cannot be made text fails its run KERNEL_FAILED at once; its worker serves on', async () => {
    // Before: the handler reporting it threw in turn, so the run hung until the hard kill and
    // failed QUANTUM_OVERRUN_KILLED (thrown from a timer, the worker died: WORKER_LOST).
    const cases: [string, string][] = [
      ['null-proto', 'a thrown object that cannot be made text'],
      ['symbol-name', 'Symbol(odd): named oddly'],
      ['getter', 'a thrown object that cannot be made text'],
    ];
    for (const [kind, why] of cases) {
      const thrown = await failure(s.run(task('throwsUnreadable'), kind));
      expect(thrown).toMatchObject({ code: 'KERNEL_FAILED', message: `the run failed: ${why}` });
      const fromTimer = await failure(s.run(task('timerThrowsUnreadable'), kind));
      expect(fromTimer).toMatchObject({
        code: 'KERNEL_FAILED',
        message: `the run failed: Error: uncaught, from a callback of its own: ${why}`,
      });
    }
    expect(await s.run(task(), 2)).toBe(4);
  });

  it('bad arguments are coded errors naming the field', async () => {
    const cases: [Promise<unknown>, string][] = [
      [s.run({ module: 'relative/tasks.mjs' }), 'task.module'],
      [s.run({ module: '/no/such/file.mjs' }), 'task.module'],
      // File URLs that name no file path (before: Node's TypeError or URIError), and a folder.
      [s.run({ module: 'file://server/tasks.mjs' }), 'task.module'],
      [s.run({ module: 'file:///a%2Fb.mjs' }), 'task.module'],
      [s.run({ module: 'file:///tmp/%' }), 'task.module'],
      [s.run({ module: new URL('./fixtures/', import.meta.url) }), 'task.module'],
      [s.run(task(''), 1), 'task.export'],
      [s.run('teleport' as 'spin', { ms: 1 }), 'task'],
      [s.run('spin', { ms: -1 }), 'input.ms'],
      [s.run(task(), 1, { priority: 101 }), 'priority'],
      [s.run(task(), 1, { tenant: '' }), 'tenant'],
      [s.run(task(), 1, { timeoutMs: 0 }), 'timeoutMs'],
      [s.run(task(), 1, { class: '' }), 'class'],
      // A misspelt option, or another pool's (Piscina's resourceLimits per run), is not ignored.
      [s.run(task(), 1, { tenannt: 'acme' } as never), 'tenannt'],
      [s.run(task(), 1, { resourceLimits: {} } as never), 'resourceLimits'],
    ];
    for (const [p, field] of cases) {
      expect(await failure(p)).toMatchObject({ code: 'INVALID_ARGUMENT', field });
    }
    expect(() => new Scheduler({ quantumMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'quantumMs' }),
    );
    expect(() => s.configure({ levelTimeMultiplier: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'levelTimeMultiplier' }),
    );
  });

  it('fair: a tenant’s one long run that yields gets its share beside a stream of short runs', async () => {
    // Each worker's next run is chosen while its current one runs (the pipeline): the short
    // runs were committed ahead of the long run at each of its yields, and it got 0.27-0.35 of
    // the worker where the policy owes it half.
    const f = new Scheduler({ workers: 1, policy: 'fair', quantumMs: 10 });
    let stop = false;
    const long = f.run(task('work'), { ms: 10_000, label: 'long' }, { tenant: 'long' });
    long.catch(() => {});
    const stream = async () => {
      while (!stop) await f.run(task('work'), { ms: 5, label: 's' }, { tenant: 'short' });
    };
    const streams = Array.from({ length: 8 }, stream);
    try {
      const served = () =>
        Object.fromEntries(f.stats().tenants.map((t) => [t.name, t.scheduledMs]));
      await new Promise((r) => setTimeout(r, 300));
      const from = served();
      await new Promise((r) => setTimeout(r, 1500));
      const to = served();
      const longMs = to['long']! - from['long']!;
      const shortMs = to['short']! - from['short']!;
      expect(longMs / (longMs + shortMs)).toBeGreaterThan(0.42);
    } finally {
      stop = true;
      await Promise.all(streams);
      await f.close({ cancel: true });
    }
  }, 30_000);

  it('fair: weight 3 against 1, two runs a tenant on two workers: the heavier gets three quarters', async () => {
    // Before: each tenant's next run was committed behind the worker running its other one, so
    // each tenant's two runs took turns on a worker of its own: 0.53-0.56, not 0.75.
    const f = new Scheduler({
      workers: 2,
      policy: 'fair',
      quantumMs: 10,
      tenantWeights: { gold: 3 },
    });
    let stop = false;
    const keepGoing = async (tenant: string) => {
      while (!stop) await f.run(task('work'), { ms: 50, label: tenant }, { tenant });
    };
    const loops = ['gold', 'gold', 'silver', 'silver'].map(keepGoing);
    try {
      const served = () =>
        Object.fromEntries(f.stats().tenants.map((t) => [t.name, t.scheduledMs]));
      await new Promise((r) => setTimeout(r, 500));
      const from = served();
      await new Promise((r) => setTimeout(r, 2000));
      const to = served();
      const gold = to['gold']! - from['gold']!;
      const silver = to['silver']! - from['silver']!;
      expect(gold / (gold + silver)).toBeGreaterThan(0.66);
    } finally {
      stop = true;
      await Promise.all(loops);
      await f.close({ cancel: true });
    }
  }, 30_000);

  it('tenant weights: given at construction or replaced later, shown in stats, checked', async () => {
    const w = new Scheduler({ workers: 1, policy: 'fair', tenantWeights: { gold: 3 } });
    try {
      await Promise.all([
        w.run(task(), 1, { tenant: 'gold' }),
        w.run(task(), 1, { tenant: 'free' }),
      ]);
      const weights = () => Object.fromEntries(w.stats().tenants.map((t) => [t.name, t.weight]));
      expect(weights()).toEqual({ gold: 3, free: 1 });
      w.setTenantWeights({ free: 2 });
      expect(weights()).toEqual({ gold: 1, free: 2 });
      expect(w.tenantWeights).toEqual({ free: 2 });
      expect(() => w.setTenantWeights({ free: -1 })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'tenantWeights.free' }),
      );
      expect(w.tenantWeights).toEqual({ free: 2 });
      // A tenant named `__proto__` (JSON.parse makes the key): before, its weight was dropped
      // unchecked, -1 included, and the call seemed to succeed.
      for (const text of ['{"__proto__": 5, "gold": 3}', '{"__proto__": -1}']) {
        expect(() => w.setTenantWeights(JSON.parse(text) as Record<string, number>)).toThrow(
          expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'tenantWeights.__proto__' }),
        );
      }
      expect(w.tenantWeights).toEqual({ free: 2 });
    } finally {
      await w.close();
    }
    expect(() => new Scheduler({ tenantWeights: { gold: 0 } })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'tenantWeights.gold' }),
    );
  });

  it('configure changes the policy live; stats count runs and tenants', async () => {
    s.configure({ policy: 'fair' });
    await Promise.all([
      s.run(task('work'), { ms: 3, label: 'a' }, { tenant: 'acme' }),
      s.run(task('work'), { ms: 3, label: 'b' }, { tenant: 'globex' }),
    ]);
    const stats = s.stats();
    expect(stats.policy).toBe('fair');
    const { runs } = stats;
    expect(runs.submitted).toBe(
      runs.succeeded + runs.failed + runs.cancelled + runs.rejected + runs.queued + runs.running,
    );
    const acme = stats.tenants.find((t) => t.name === 'acme');
    expect(acme?.liveRuns).toBe(0);
    expect(acme?.scheduledMs).toBeGreaterThanOrEqual(3);
    s.configure({ policy: 'mlfq' });
  });
});

describe('tenants share the workers', () => {
  it.each(['fair', 'mlfq'] as const)(
    "under %s a light tenant's run finishes ahead of a flooding tenant's backlog",
    async (policy) => {
      const s = new Scheduler({
        workers: 1,
        policy,
        quantumMs: 2,
        levelThresholdsMs: [0, 5, 20, 60, 200],
      });
      try {
        const order: string[] = [];
        const done = (label: string) => (v: unknown) => order.push(`${label}:${String(v)}`);
        const flood = Array.from({ length: 12 }, (_, i) =>
          s.run(task('work'), { ms: 10, label: i }, { tenant: 'a' }).then(done('a')),
        );
        await until(() => s.stats().tenants.some((t) => t.name === 'a' && t.scheduledMs >= 20));
        await s.run(task('work'), { ms: 2, label: 'b' }, { tenant: 'b' }).then(done('b'));
        await Promise.all(flood);
        // Order, not time: B's one run overtakes most of A's queued runs.
        expect(order.indexOf('b:b')).toBeLessThan(8);
      } finally {
        await s.close();
      }
    },
  );

  it("maxLivePerTenant turns away a flooding tenant's runs, not another tenant's", async () => {
    const s = new Scheduler({ workers: 1, policy: 'fair', maxLivePerTenant: 3, maxQueued: 6 });
    try {
      const flood = Array.from({ length: 5 }, (_, i) =>
        s.run(task('work'), { ms: 5, label: i }, { tenant: 'acme' }),
      );
      const settled = Promise.allSettled(flood);
      expect(await s.run(task('work'), { ms: 1, label: 'g' }, { tenant: 'globex' })).toBe('g');
      expect(await settled).toMatchObject([
        { status: 'fulfilled', value: 0 },
        { status: 'fulfilled', value: 1 },
        { status: 'fulfilled', value: 2 },
        { status: 'rejected', reason: { code: 'QUEUE_FULL', field: 'maxLivePerTenant' } },
        { status: 'rejected', reason: { code: 'QUEUE_FULL', field: 'maxLivePerTenant' } },
      ]);
      const refused = await failure(flood[3]!);
      expect(refused.message).toContain('maxLivePerTenant 3 reached by tenant acme');
      expect(s.stats().runs).toMatchObject({ submitted: 6, succeeded: 4, rejected: 2 });
      const tenants = Object.fromEntries(s.stats().tenants.map((t) => [t.name, t.rejectedRuns]));
      expect(tenants).toEqual({ acme: 2, globex: 0 });
      // The whole queue full is told apart: it names maxQueued (a few runs are already handed
      // to the worker's queue and are not waiting in ours, so 10 runs are sent to fill it).
      s.configure({ maxLivePerTenant: null, maxQueued: 1 });
      const runs = Array.from({ length: 10 }, (_, i) =>
        s.run(task('work'), { ms: 5, label: i }, { tenant: `t${i}` }),
      );
      const refusals = (await Promise.allSettled(runs)).filter((o) => o.status === 'rejected');
      expect(refusals.length).toBeGreaterThan(0);
      for (const r of refusals) {
        expect(r.reason).toMatchObject({ code: 'QUEUE_FULL', field: 'maxQueued' });
      }
    } finally {
      await s.close();
    }
  });
});

describe('await ctx.yield() through Scheduler.run', () => {
  // yielding.mjs's `stepper`: a step of `stepMs`, then `await ctx.yield()`; shared words it
  // writes: [calls, steps done, finally ran, hold, holding].
  const stepper = { module: new URL('../runtime/threads/fixtures/yielding.mjs', import.meta.url) };
  const words = () => new Int32Array(new SharedArrayBuffer(5 * 4));
  const steps = { ...stepper, export: 'stepper' };

  it('two tenants time-share one worker; each call continues where it was suspended', async () => {
    const s = new Scheduler({ workers: 1, policy: 'fair', quantumMs: 2 });
    try {
      const [a, b] = [words(), words()];
      const results = await Promise.all([
        s.run(steps, { words: a, label: 'a', steps: 10, stepMs: 3 }, { tenant: 'a' }),
        s.run(steps, { words: b, label: 'b', steps: 10, stepMs: 3 }, { tenant: 'b' }),
      ]);
      expect(results).toEqual([
        { label: 'a', done: 10 },
        { label: 'b', done: 10 },
      ]);
      expect([a[0], b[0]]).toEqual([1, 1]); // one call each, across its quanta
      // A step outlasts the quantum: every `await ctx.yield()` ended one (10 each, then the last).
      expect(s.stats().quanta).toBe(22);
    } finally {
      await s.close();
    }
  });

  it('an AbortSignal while the call is suspended rejects CANCELLED and frees the call', async () => {
    const s = new Scheduler({ workers: 1, policy: 'fair', quantumMs: 2 });
    try {
      const [a, b] = [words(), words()];
      const stop = new AbortController();
      const runA = failure(s.run(steps, { words: a, label: 'a' }, { signal: stop.signal }));
      const runB = s.run(steps, { words: b, label: 'b', steps: 40 }, { tenant: 'b' });
      await until(() => a[1]! >= 2 && b[1]! >= 2);
      Atomics.store(b, 3, 1); // B keeps the only worker: A can only be suspended now
      await until(() => b[4] === 1);
      stop.abort();
      Atomics.store(b, 3, 0);
      expect(await runA).toMatchObject({ code: 'CANCELLED', field: 'signal' });
      await until(() => a[2] === 1); // its `finally` ran in the worker: the await was rejected
      expect(await runB).toEqual({ label: 'b', done: 40 });
      expect(a[0]).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe('Scheduler.close', () => {
  it('drains runs in flight by default, then refuses new ones', async () => {
    const s = new Scheduler({ workers: 1, quantumMs: 2 });
    const inFlight = s.run(task('quanta'), { left: 3 });
    const closed = s.close();
    expect(await failure(s.run(task(), 1))).toMatchObject({ code: 'ENGINE_CLOSED' });
    expect(await inFlight).toBe(3);
    await closed;
    expect(s.close()).toBe(closed);
  });

  it('with { cancel: true } cancels runs in flight: they reject with ENGINE_CLOSED', async () => {
    const s = new Scheduler({ workers: 1, quantumMs: 2 });
    const inFlight = failure(s.run(task('forever'), 0));
    await s.close({ cancel: true });
    expect(await inFlight).toMatchObject({ code: 'ENGINE_CLOSED' });
  });

  it('with { cancel: true } a call suspended in ctx.yield() runs its finally blocks first', async () => {
    // Before: the threads were terminated at once; a signal's cancel ran them, a close did not.
    const stepper = {
      module: new URL('../runtime/threads/fixtures/yielding.mjs', import.meta.url),
      export: 'stepper',
    };
    const words = () => new Int32Array(new SharedArrayBuffer(5 * 4));
    const s = new Scheduler({ workers: 1, policy: 'fair', quantumMs: 2 });
    const [a, b] = [words(), words()];
    const runs = [
      failure(s.run(stepper, { words: a, label: 'a', steps: 1e6 }, { tenant: 'a' })),
      failure(s.run(stepper, { words: b, label: 'b', steps: 1e6 }, { tenant: 'b' })),
    ];
    await until(() => a[1]! >= 2 && b[1]! >= 2); // both have yielded: one is suspended now
    await s.close({ cancel: true });
    for (const run of runs) expect(await run).toMatchObject({ code: 'ENGINE_CLOSED' });
    expect([a[2], b[2]]).toContain(1); // the suspended call's `finally` ran in its thread
  });

  it('with { cancel: true } a call in the middle of its quantum runs its finally blocks too', async () => {
    // A one-minute quantum: the call is never suspended, it awaits ctx.yield() mid-quantum.
    // Before: the thread was terminated at once and the finally never ran.
    const stepper = {
      module: new URL('../runtime/threads/fixtures/yielding.mjs', import.meta.url),
      export: 'stepper',
    };
    const words = new Int32Array(new SharedArrayBuffer(5 * 4));
    const s = new Scheduler({ workers: 1, quantumMs: 60_000 });
    const run = failure(s.run(stepper, { words, label: 'a', steps: 1e6 }));
    await until(() => words[1]! >= 2);
    await s.close({ cancel: true });
    expect(await run).toMatchObject({ code: 'ENGINE_CLOSED' });
    expect(words[2]).toBe(1);
  });

  it('a { cancel: true } close during a draining one cancels what is live (Pool.destroy after close)', async () => {
    // Before: later calls returned the draining close's promise, which never settled.
    const s = new Scheduler({ workers: 1, quantumMs: 2 });
    const stuck = failure(s.run(task('hang'), 0));
    const draining = s.close();
    await new Promise((r) => setTimeout(r, 50));
    await s.close({ cancel: true });
    await draining;
    expect(await stuck).toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});

describe('Scheduler.close, continued', () => {
  it('a { cancel: true } close during a draining one resolves once the workers have stopped', async () => {
    // Before: the shared promise resolved at once (the executor's second close returned while
    // the first still closed the backend): a service that then exited lost its runs' finally.
    const stepper = {
      module: new URL('../runtime/threads/fixtures/yielding.mjs', import.meta.url),
      export: 'stepper',
    };
    const words = new Int32Array(new SharedArrayBuffer(5 * 4));
    const s = new Scheduler({ workers: 1, quantumMs: 60_000 });
    const run = failure(s.run(stepper, { words, label: 'a', steps: 1e6 }));
    await until(() => words[1]! >= 2);
    const draining = s.close();
    await new Promise((r) => setTimeout(r, 30));
    void s.close({ cancel: true });
    await draining;
    expect(words[2]).toBe(1); // the call's finally ran in its thread before close resolved
    expect(await run).toMatchObject({ code: 'ENGINE_CLOSED' });
  });

  it('a bad argument is INVALID_ARGUMENT naming it, and the scheduler goes on taking runs', async () => {
    // Before: close(null) threw a TypeError after the scheduler had stopped taking runs, and no
    // shutdown started (its workers kept the process alive); { cancel: 'yes' } drained.
    const s = new Scheduler({ workers: 1 });
    const bad = [null, 'cancel', { cancel: 'yes' }, { cancle: true }] as unknown[];
    const fields = [];
    for (const options of bad) {
      const e = await failure(s.close(options as { cancel?: boolean }));
      expect(e.code).toBe('INVALID_ARGUMENT');
      fields.push(e.field);
    }
    expect(fields).toEqual(['options', 'options', 'cancel', 'cancle']);
    expect(await s.run(task(), 2)).toBe(4);
    await s.close();
  });
});

describe('Scheduler.stats', () => {
  it('never counts a run cancelled behind another’s quantum twice: running stays >= 0', async () => {
    // One worker: A runs past its quantum, B waits behind it on the worker (the pipeline). The
    // main thread is held while A ends and B starts there; both are then cancelled. Before:
    // `running` read -1 and `queued` 1, with no run live.
    const s = new Scheduler({ workers: 1, quantumMs: 10 });
    try {
      await s.ready();
      const stop = new AbortController();
      const a = failure(s.run(task('busy'), 60, { signal: stop.signal }));
      await new Promise((r) => setTimeout(r, 10));
      const b = failure(s.run(task('busy'), 300, { signal: stop.signal }));
      await new Promise((r) => setTimeout(r, 10));
      const held = performance.now();
      while (performance.now() - held < 150) {
        // the main thread is busy: A's end is not read yet
      }
      stop.abort();
      const runs = s.stats().runs;
      expect(runs.running).toBeGreaterThanOrEqual(0);
      expect(runs.queued).toBeGreaterThanOrEqual(0);
      expect(runs.submitted).toBe(
        runs.succeeded + runs.failed + runs.cancelled + runs.rejected + runs.queued + runs.running,
      );
      await Promise.all([a, b]);
    } finally {
      await s.close({ cancel: true });
    }
  });
});

/** Waits until `condition` holds (polled every 5 ms, 20 s at most). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 20 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("transferList (Piscina's): what the input moves to the worker instead of copying", () => {
  let s: Scheduler;
  beforeAll(async () => {
    s = new Scheduler({ workers: 2, quantumMs: 5 });
    await s.ready();
  });
  afterAll(() => s.close());
  const filled = (length: number, value: number) => new Uint8Array(length).fill(value).buffer;

  it('moves a listed buffer (the caller is left a detached one); an unlisted one is copied', async () => {
    const moved = filled(3001, 2);
    expect(await s.run(task('sumBytes'), moved, { transferList: [moved] })).toEqual({
      sum: 6002,
      byteLength: 3001,
    });
    expect(moved.byteLength).toBe(0);
    const copied = filled(10, 1);
    expect(await s.run(task('sumBytes'), copied)).toEqual({ sum: 10, byteLength: 10 });
    expect(copied.byteLength).toBe(10);
  });

  it("an input wrapped by Piscina's move() moves: the task gets the view, the caller's is detached", async () => {
    // Before: the wrapper's keys are symbols, which structured clone drops: the task got `{}`
    // and the caller kept its buffer, without an error.
    const view = new Uint8Array(3001).fill(2);
    expect(await s.run(task('sumBytes'), move(view))).toEqual({ sum: 6002, byteLength: 3001 });
    expect(view.byteLength).toBe(0);
    const buffer = filled(10, 1);
    expect(await s.run(task('sumBytes'), move(buffer))).toEqual({ sum: 10, byteLength: 10 });
    expect(buffer.byteLength).toBe(0);
    // What it names is checked as a transferList is: moved already, it is refused by name.
    expect(await failure(s.run(task('sumBytes'), move(buffer)))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'transferList[0]',
    });
  });

  it('a run suspended in ctx.yield() keeps its moved input across quanta (it is sent once)', async () => {
    const before = s.stats().quanta;
    const moved = filled(3500, 1);
    const run = s.run(task('sumBytesInQuanta'), moved, { transferList: [moved] });
    expect(await run).toEqual({ sum: 3500, byteLength: 3500 });
    expect(s.stats().quanta - before).toBeGreaterThanOrEqual(4);
  });

  it('refuses a bad list at the call, naming the item and what it must be', async () => {
    const gone = filled(4, 0);
    structuredClone(gone, { transfer: [gone] });
    const twice = filled(4, 0);
    const cases: [unknown, string, RegExp][] = [
      ['buffer', 'transferList', /array of ArrayBuffers and MessagePorts/],
      [[new Uint8Array(4)], 'transferList[0]', /a view: pass its \.buffer/],
      [[filled(1, 0), {}], 'transferList[1]', /must be an ArrayBuffer or a MessagePort/],
      [[gone], 'transferList[0]', /detached/],
      [[twice, twice], 'transferList', /names an item twice/],
      [Array.from({ length: 1025 }, () => new ArrayBuffer(0)), 'transferList', /at most 1024/],
    ];
    for (const [list, field, message] of cases) {
      const refused = await failure(s.run(task('sumBytes'), 0, { transferList: list } as never));
      expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', field, message });
    }
    const kernel = await failure(s.run('spin', { ms: 1 }, { transferList: [filled(1, 0)] }));
    expect(kernel).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'transferList' });
    expect(s.stats().runs.running + s.stats().runs.queued).toBe(0); // nothing was queued
  });

  it('a buffer moved away before its run was sent fails that run alone, not with an empty input', async () => {
    const shared = filled(4, 1);
    const first = s.run(task('sumBytes'), shared, { transferList: [shared] });
    const second = failure(s.run(task('sumBytes'), shared, { transferList: [shared] }));
    const plain = s.run(task(), 4);
    expect(await first).toEqual({ sum: 4, byteLength: 4 });
    expect(await second).toMatchObject({
      code: 'KERNEL_FAILED',
      message: expect.stringMatching(/transferList\[0\] was detached .* before the run was sent/),
    });
    expect(await plain).toBe(8);
    // Moved elsewhere by the caller after the call, before the send.
    const mine = filled(4, 1);
    const late = failure(s.run(task('sumBytes'), mine, { transferList: [mine] }));
    structuredClone(mine, { transfer: [mine] });
    expect(await late).toMatchObject({ code: 'KERNEL_FAILED' });
  });
});

describe('ctx.move: a result moved back to the caller instead of copied', () => {
  let s: Scheduler;
  beforeAll(async () => {
    s = new Scheduler({ workers: 1 });
    await s.ready();
  });
  afterAll(() => s.close());

  it('returns the moved value: a typed array on the whole moved buffer', async () => {
    const bytes = await s.run<Uint8Array>(task('moveBack'), 1000);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBe(1000);
    expect(bytes.every((b) => b === 7)).toBe(true);
  });

  it('moves a yielded state: each call gets what the last one left', async () => {
    // Cloned as it was, the wrapper (symbol keys) arrived as {}: every call started over, for good.
    const out = await s.run(task('moveState'), null, { timeoutMs: 30_000 });
    expect(out).toEqual({ count: 4, calls: 4, bytes: 1 << 20 });
  });

  it('a value it cannot move, or a buffer moved already, fails that run only', async () => {
    expect(await failure(s.run(task('moveBad')))).toMatchObject({
      code: 'KERNEL_FAILED',
      message: expect.stringMatching(/ctx\.move takes an ArrayBuffer/),
    });
    expect(new Uint8Array(await s.run<ArrayBuffer>(task('moveShared')))).toEqual(
      new Uint8Array([5, 5, 5, 5]),
    );
    // The worker moved its only copy with the first result: the second has nothing to send.
    expect(await failure(s.run(task('moveShared')))).toMatchObject({
      code: 'KERNEL_FAILED',
      message: expect.stringMatching(/unclonable result: ctx\.move: its buffer was moved already/),
    });
    expect(await s.run(task(), 2)).toBe(4); // the worker serves on
  });

  it("moves a result wrapped by Piscina's own move(): a Piscina task file runs unchanged", async () => {
    const pool = new Pool({ filename: new URL('./fixtures/piscina-task.mjs', import.meta.url) });
    try {
      const bytes = await pool.run<Uint8Array>(16);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect([...bytes]).toEqual(new Array(16).fill(9));
    } finally {
      await pool.destroy();
    }
  });
});

describe('Pool, the Piscina-shaped front', () => {
  it('runs the default or a named export of its filename, for a tenant', async () => {
    const pool = new Pool({ filename: TASKS.href, maxThreads: 1 });
    try {
      expect(await pool.run(5)).toBe(10);
      expect(await pool.run({ ms: 1, label: 'x' }, { name: 'work', tenant: 't' })).toBe('x');
      expect(pool.scheduler.stats().workers).toBe(1);
      expect(pool.scheduler.stats().tenants.map((t) => t.name)).toEqual(['t']);
      // Piscina's transferList moves the buffer, as there.
      const buffer = new Uint8Array(8).fill(3).buffer;
      const moved = pool.run(buffer, { name: 'sumBytes', transferList: [buffer] });
      expect(await moved).toEqual({ sum: 24, byteLength: 8 });
      expect(buffer.byteLength).toBe(0);
      // Options that are no object reject naming them, as scheduler.run's (before: a TypeError
      // thrown by pool.run itself, or a field named `0`).
      for (const options of [null, 'work']) {
        const bad = pool.run(1, options as never);
        expect(bad).toBeInstanceOf(Promise);
        await expect(bad).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', field: 'options' });
      }
      // A bad export name is named as the caller wrote it (it read `task.export`).
      for (const name of ['', 7]) {
        await expect(pool.run(1, { name } as never)).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
          field: 'name',
        });
      }
    } finally {
      await pool.destroy();
    }
  });

  it('runs a Piscina task file compiled to CommonJS: tsc’s default export, an object of arrows', async () => {
    // Before: `has no function export` for both (Node's named-export detection misses them;
    // Piscina looks in module.exports).
    const tsc = new Pool({ filename: new URL('./fixtures/cjs-tsc.cjs', import.meta.url) });
    const arrows = new Pool({
      filename: new URL('./fixtures/cjs-arrows.cjs', import.meta.url),
      name: 'resize', // Piscina's default export name
    });
    try {
      expect(await tsc.run(1)).toBe('tsc:1');
      expect(await arrows.run(2)).toBe('resized:2');
      expect(await arrows.run(3, { name: 'resize' })).toBe('resized:3');
    } finally {
      await Promise.all([tsc.destroy(), arrows.destroy()]);
    }
    expect(() => new Pool({ filename: TASKS, name: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'name' }),
    );
  });

  it('close({ force: true }) cancels what is queued and running; a bad option is refused', async () => {
    // Before: close() dropped its options, so Piscina's force drained every run.
    const pool = new Pool({ filename: TASKS, maxThreads: 1 });
    const runs = [1, 2, 3].map(() => failure(pool.run({ ms: 2000, label: 'x' }, { name: 'work' })));
    await expect(pool.close({ force: 'yes' } as never)).rejects.toMatchObject({ field: 'force' });
    await expect(pool.close({ drain: true } as never)).rejects.toMatchObject({ field: 'drain' });
    await pool.close({ force: true });
    for (const run of runs) expect(await run).toMatchObject({ code: 'ENGINE_CLOSED' });
  });

  it("takes Piscina's maxQueue ('auto': threads squared) and reports queueSize", async () => {
    const auto = new Pool({ filename: TASKS, maxThreads: 3, maxQueue: 'auto' });
    expect(auto.scheduler.config).toMatchObject({ maxQueued: 9 });
    await auto.destroy();
    expect(() => new Pool({ filename: TASKS, maxQueue: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'maxQueue' }),
    );
    for (const [name, input] of [
      ['work', { ms: 20, label: 'slow' }],
      ['default', 1], // tiny runs: many would be handed to the busy worker's queue at once
    ] as const) {
      const pool = new Pool({ filename: TASKS, maxThreads: 1, maxQueue: 2, idleTimeout: 1000 });
      try {
        await pool.run(1); // started
        const runs = Array.from({ length: 40 }, () => pool.run(input, { name }));
        const settled = Promise.allSettled(runs);
        // One running, and at most maxQueue waiting: in the queue or handed to the worker's.
        expect(pool.queueSize).toBe(2);
        const outcomes = await settled;
        const refused = outcomes.filter((o) => o.status === 'rejected');
        expect(refused).toHaveLength(37);
        // It names what the caller wrote, maxQueue, not the engine's maxQueued.
        for (const r of refused) {
          expect(r.reason).toMatchObject({ code: 'QUEUE_FULL', field: 'maxQueue' });
          expect((r.reason as Error).message).toMatch(/maxQueue 2 reached/);
        }
        expect(pool.queueSize).toBe(0);
      } finally {
        await pool.destroy();
      }
    }
  });
});
