// Memory is bounded by design: rings and caps, not growing arrays. A live session on the simulator
// runs an hour of virtual time (a looping workload, an operator switching policies, cancelling and
// reprioritizing jobs, reloading the workload, reconnecting a client) while every structure the
// engine retains is read through its own size getter at each checkpoint. A few structures have no
// public getter; `internals` reads them by name, in one place.
import { describe, expect, it, vi } from 'vitest';
import { forceGc } from '../bench/gc.ts';
import type { PolicyName } from '../shared/config.ts';
import type { Counters } from '../shared/protocol.ts';
import { parseWorkload } from '../shared/workload.ts';
import { createRng } from '../shared/lib/rng.ts';
import { liveWorkloads } from '../engine/host/server/live-workloads.ts';
import { Session } from '../engine/host/session/index.ts';
import { Executor } from '../engine/runtime/executor/index.ts';
import type { IdTable } from '../engine/runtime/executor/id-table.ts';
import { SimBackend } from '../engine/runtime/sim/index.ts';
import { fixture } from '../engine/runtime/threads/fixtures/driver.ts';
import { ThreadsBackend } from '../engine/runtime/threads/index.ts';
import { TrinoController } from '../engine/runtime/workload/trino-controller.ts';

/** Event slots the simulator has ever allocated (its two heaps grow to their peak, then reuse). */
function eventSlots(sim: SimBackend): number {
  const heaps = sim as unknown as { ends: { slots: number }; timers: { slots: number } };
  return heaps.ends.slots + heaps.timers.slots;
}

const MIN = 60e9;
const SPAN_CAPACITY = 4096;
const EVENT_CAPACITY = 64;
const RECENT_JOBS = 32;
const MAX_JOB_ROWS = 200;

function settledHeapMb(): number {
  forceGc();
  forceGc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** Short queries, leaves that block on I/O, pure sleeps and a periodic scan, open-ended. */
const churn = {
  name: 'churn',
  seed: 3,
  durationMs: 24 * 3_600_000,
  config: { policy: 'mlfq', quantumMs: 10, levelThresholdsMs: [0, 10, 100, 600, 3000] },
  classes: [
    {
      name: 'interactive',
      arrival: { kind: 'poisson', rate: 3 },
      splits: { intermediate: 2 },
      work: { kernel: 'hash', totalMs: { kind: 'exponential', meanMs: 3 } },
      basePriority: 10,
    },
    {
      name: 'io',
      arrival: { kind: 'poisson', rate: 1 },
      splits: { leaf: 2 },
      work: { kernel: 'hash', totalMs: 6, perCallMs: 2, blockedMs: 20 },
      basePriority: 40,
    },
    {
      name: 'sleepy',
      arrival: { kind: 'poisson', rate: 1 },
      splits: { intermediate: 1 },
      work: { kernel: 'sleep', totalMs: 50 },
      basePriority: 70,
    },
    {
      name: 'scan',
      arrival: { kind: 'periodic', everyMs: 60_000 },
      tasks: 2,
      splits: { leaf: 4 },
      work: { kernel: 'hash', totalMs: { kind: 'uniform', minMs: 50, maxMs: 150 } },
      basePriority: 90,
    },
  ],
};

/** Engine structures without a public size getter, by their field names (the executor's parts). */
interface Internals {
  splits: IdTable<unknown>;
  tasks: IdTable<unknown>;
  admission: { rotation: unknown[]; inRotation: Set<unknown> };
  book: {
    liveById: IdTable<unknown>;
    succeeded: { items: unknown[] };
    troubled: { items: unknown[] };
    jobEnd: unknown[];
    splitEnd: unknown[];
  };
  spans: { classNames: string[] };
  events: { items: unknown[] };
}
interface ExecutorParts {
  live: { splits: IdTable<unknown>; tasks: IdTable<unknown> };
  bookkeeping: { admission: Internals['admission'] };
  book: Internals['book'];
  spans: Internals['spans'];
  events: Internals['events'];
}
function internals(ex: Executor): Internals {
  const parts = ex as unknown as ExecutorParts;
  const i: Internals = {
    splits: parts.live?.splits,
    tasks: parts.live?.tasks,
    admission: parts.bookkeeping?.admission,
    book: parts.book,
    spans: parts.spans,
    events: parts.events,
  };
  const { succeeded, troubled } = i.book;
  for (const v of [
    i.splits,
    i.tasks,
    i.admission?.rotation,
    succeeded?.items,
    troubled?.items,
    i.events.items,
  ]) {
    expect(v, 'an engine field read by name was renamed: update internals()').toBeDefined();
  }
  return i;
}

/**
 * What the current policy keeps beside its queued splits, by size getter (each policy has one or
 * two of them), and the bound each promises: split indexes sweep idle nodes past
 * max(1024, 2 × queued), fair forgets idle groups the same way, PRIO compacts once tombstones
 * exceed max(1024, live).
 */
function policyKept(ex: Executor): { getter: string; kept: number; bound: number }[] {
  const q = ex.policy as unknown as {
    size: number;
    index?: { kept: number };
    trackedGroups?: number;
    heapLength?: number;
  };
  const n = q.size;
  const bound = n + Math.max(1024, 2 * n) + 1;
  const probes = [
    { getter: 'index.kept', kept: q.index?.kept },
    { getter: 'trackedGroups', kept: q.trackedGroups },
    { getter: 'heapLength', kept: q.heapLength },
  ].flatMap((p) => (p.kept === undefined ? [] : [{ ...p, kept: p.kept, bound }]));
  expect(probes.length, `${ex.policyName}: no size getter found`).toBeGreaterThan(0);
  return probes;
}

interface Checkpoint {
  minute: number;
  heapMb: number;
  frameBytes: number;
  slots: number;
  live: number;
}

describe('memory stays bounded over a long run', () => {
  it('an hour of a looping live workload keeps every retained structure capped', async () => {
    const sim = new SimBackend({ workers: 4, seed: 1 });
    const session = new Session({
      backend: sim,
      frameHz: 1,
      maxJobRows: MAX_JOB_ROWS,
      executor: {
        spanCapacity: SPAN_CAPACITY,
        eventCapacity: EVENT_CAPACITY,
        recentJobs: RECENT_JOBS,
      },
      workloads: liveWorkloads({ loop: true }),
    });
    const ex = session.executor;
    const inner = internals(ex);
    const listeners = { job: inner.book.jobEnd.length, split: inner.book.splitEnd.length };
    const load = () => session.handleCommand({ type: 'loadWorkload', workload: churn });
    expect(await load()).toMatchObject({ ok: true });

    const policies: PolicyName[] = ['mlfq', 'fair', 'priority', 'fifo', 'mlfq', 'fair'];
    const checkpoints: Checkpoint[] = [];
    for (let minute = 1; minute <= 60; minute++) {
      sim.runUntil(sim.now() + MIN);
      // An operator at work: cancels, a reprioritization, a knob change (events).
      const live = ex.jobs(20).filter((j) => j.state === 'running' || j.state === 'queued');
      for (const j of live.slice(0, 2)) ex.cancelJob(j.id);
      if (live[2] !== undefined) ex.reprioritize(live[2].id, minute % 100);
      ex.configure({ levelTimeMultiplier: minute % 2 === 0 ? 2 : 3 });
      if (minute % 20 === 0) expect(await load()).toMatchObject({ ok: true });
      const frame = session.frame();
      if (minute % 10 !== 0) continue;

      // ─── checkpoint: the policy that ran these ten minutes, then the next one ───
      const c = ex.counters;
      for (const { getter, kept, bound } of policyKept(ex)) {
        expect(kept, `${ex.policyName} ${getter}`).toBeLessThanOrEqual(bound);
      }
      expect(ex.spans.capacity).toBe(SPAN_CAPACITY);
      expect(frame.spans.count).toBeLessThanOrEqual(SPAN_CAPACITY);
      expect(inner.events.items.length).toBeLessThanOrEqual(EVENT_CAPACITY);
      expect(ex.events.since(0).length).toBeLessThanOrEqual(EVENT_CAPACITY);
      // A client reconnecting gets the whole ring, never more.
      const snapshot = session.snapshot();
      expect(snapshot.spans.count).toBeLessThanOrEqual(SPAN_CAPACITY);
      expect(snapshot.events.length).toBeLessThanOrEqual(EVENT_CAPACITY);
      expect(inner.book.succeeded.items.length).toBeLessThanOrEqual(RECENT_JOBS);
      expect(inner.book.troubled.items.length).toBeLessThanOrEqual(RECENT_JOBS);
      expect(ex.jobs(1e9).length).toBeLessThanOrEqual(c.live + 2 * RECENT_JOBS);
      expect(frame.jobs.length).toBeLessThanOrEqual(MAX_JOB_ROWS);
      // Per-job state exists only for live work, and live work stays small (the engine keeps up).
      expect(inner.book.liveById.size).toBe(c.live);
      // The id tables keep few empty slots beside their live records (id-table.ts).
      for (const table of [inner.book.liveById, inner.splits, inner.tasks]) {
        expect(table.kept).toBeLessThanOrEqual(Math.max(1024, 4 * table.size) + table.size);
      }
      expect(ex.fairness().jobs).toBeLessThanOrEqual(c.live);
      const liveSplits =
        c.splitsWaiting + c.splitsQueued + c.splitsRunning + c.splitsBlocked + c.splitsRetrying;
      expect(inner.splits.size).toBe(liveSplits);
      expect(inner.tasks.size).toBeLessThanOrEqual(liveSplits);
      expect(inner.admission.rotation.length).toBeLessThanOrEqual(inner.tasks.size);
      expect(inner.admission.inRotation.size).toBe(inner.admission.rotation.length);
      expect(c.live).toBeLessThan(100);
      // Reloading the workload three times added no listeners.
      expect(inner.book.jobEnd.length).toBe(listeners.job);
      expect(inner.book.splitEnd.length).toBe(listeners.split);
      // Percentile tables: one histogram per class (capped) and per band, and only for classes
      // with a job ended in the last 60 s or since the workload was (re)loaded (their window).
      const lat = session.stats.latency.read();
      const classes = ['interactive', 'io', 'scan', 'sleepy'];
      expect(Object.keys(lat.byClass).every((c) => classes.includes(c))).toBe(true);
      expect(Object.keys(lat.byBand).length).toBeLessThanOrEqual(5);
      expect(inner.spans.classNames.length).toBe(4);
      // The simulator holds an event per busy worker, blocked split, arrival cursor and the loop's
      // check; a cancelled timer or quantum end stays until its time comes (at most one of each).
      const owners = 4 + liveSplits + churn.classes.length + 1;
      expect(sim.pendingEvents).toBeLessThanOrEqual(2 * owners);
      checkpoints.push({
        minute,
        heapMb: settledHeapMb(),
        frameBytes: JSON.stringify(frame).length,
        slots: eventSlots(sim),
        live: c.live,
      });
      ex.setPolicy(policies[minute / 10]!);
    }

    const c = ex.counters;
    await session.close();
    // The run did far more than any cap holds: the rings wrapped many times over.
    expect(c.submitted).toBeGreaterThan(15_000);
    expect(c.quanta).toBeGreaterThan(10 * SPAN_CAPACITY);
    expect(ex.events.total).toBeGreaterThan(EVENT_CAPACITY * 2);
    expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
    expect(c.cancelled).toBeGreaterThan(30);

    // Sizes late in the run are those of early in the run: nothing accumulates.
    const first = checkpoints[0]!;
    const last = checkpoints[checkpoints.length - 1]!;
    const maxEarly = (k: 'frameBytes' | 'slots') =>
      Math.max(...checkpoints.slice(0, 3).map((p) => p[k]));
    const maxLate = (k: 'frameBytes' | 'slots') =>
      Math.max(...checkpoints.slice(3).map((p) => p[k]));
    expect(maxLate('frameBytes')).toBeLessThan(1.5 * maxEarly('frameBytes'));
    expect(maxLate('slots')).toBeLessThanOrEqual(2 * maxEarly('slots'));
    // Heap after a full GC: the last 50 minutes (≈ 15k jobs) add less than 3 MB (measured: within
    // ±1 MB); anything kept per job, even 200 bytes of it, would add more.
    expect(last.heapMb - first.heapMb, JSON.stringify(checkpoints)).toBeLessThan(3);
  });
});

/**
 * A small Trino simulation (the controller's loop as in `trino-overloaded`, at a size a unit test
 * can run for long): leaf and intermediate tasks replaced as they complete, the pending queue
 * cleared every minute. Sampled once a virtual minute.
 */
const trinoWorkload = parseWorkload({
  name: 'trino-small',
  durationMs: 60 * 60_000,
  seed: 5,
  config: { policy: 'mlfq', workers: 4, quantumMs: 1000, minDrivers: 8 },
  trino: {
    specs: [
      {
        name: 'leaf',
        type: 'leaf',
        concurrentTasks: 4,
        splitsPerTask: 6,
        generator: { simple: { totalMs: 2000, perCallMs: 500 } },
      },
      {
        name: 'inter',
        type: 'intermediate',
        concurrentTasks: 2,
        splitsPerTask: 4,
        generator: { simple: { totalMs: 3000, perCallMs: 1000 } },
      },
    ],
    timeline: [
      { atMs: 0, action: 'enable', spec: 'leaf' },
      { atMs: 0, action: 'enable', spec: 'inter' },
      ...Array.from({ length: 15 }, (_, i) => ({ atMs: (i + 1) * 60_000, action: 'clear' })),
    ],
  },
});
interface TrinoRun {
  concurrent: number;
  timeline: number;
  maxRunning: number;
  maxTracked: number;
  maxTasks: number;
  maxLive: number;
  splitListeners: number[];
  timers: number[];
  tasksCompleted: number;
}
let trinoRun: TrinoRun | null = null;
function runTrino(minutes: number): TrinoRun {
  if (trinoRun !== null) return trinoRun;
  const workload = trinoWorkload;
  const trino = workload.trino!;
  const sim = new SimBackend({ workers: 4, seed: 1 });
  const ex = new Executor(sim, workload.config, { spanCapacity: SPAN_CAPACITY });
  const inner = internals(ex);
  const ctl = new TrinoController(ex, trino, createRng(workload.seed), {
    originNanos: 0,
    scale: 1,
  });
  const kept = ctl as unknown as { byTask: Map<number, unknown>; timers: unknown[] };
  const run: TrinoRun = {
    concurrent: trino.specs.reduce((n, s) => n + s.concurrentTasks, 0),
    timeline: trino.timeline.length,
    maxRunning: 0,
    maxTracked: 0,
    maxTasks: 0,
    maxLive: 0,
    splitListeners: [],
    timers: [],
    tasksCompleted: 0,
  };
  ctl.start();
  for (let m = 1; m <= minutes; m++) {
    sim.runUntil(m * MIN);
    run.maxRunning = Math.max(run.maxRunning, ctl.runningTasks().length);
    run.maxTracked = Math.max(run.maxTracked, kept.byTask.size);
    run.maxTasks = Math.max(run.maxTasks, inner.tasks.size);
    run.maxLive = Math.max(run.maxLive, ex.counters.live);
    run.splitListeners.push(inner.book.splitEnd.length);
    run.timers.push(kept.timers.length);
  }
  run.tasksCompleted = ctl.stats().reduce((n, s) => n + s.completed, 0);
  ctl.stop();
  return (trinoRun = run);
}

describe('the Trino controller over a long run', () => {
  it('holds tasks, splits and listeners for its running tasks only', () => {
    const run = runTrino(60);
    // Many generations of tasks came and went; only the concurrent ones are held.
    expect(run.tasksCompleted).toBeGreaterThan(3 * run.concurrent);
    expect(run.maxRunning).toBeLessThanOrEqual(run.concurrent);
    expect(run.maxTracked).toBeLessThanOrEqual(run.concurrent);
    expect(run.maxTasks).toBeLessThanOrEqual(run.concurrent);
    expect(run.maxLive).toBeLessThanOrEqual(run.concurrent);
    expect(new Set(run.splitListeners)).toEqual(new Set([1]));
  });

  // Regression: the controller once pushed every tick's timer into `TrinoController.timers` and
  // never removed one (2 entries per virtual second; 200 per second on threads, each holding a
  // Node Timeout), for as long as a live Trino preset ran.
  it("keeps the timeline's timers and one pending tick, not one per tick ever run", () => {
    const run = runTrino(60);
    expect(Math.max(...run.timers)).toBeLessThanOrEqual(run.timeline + 1);
  });
});

describe('per-class state', () => {
  const distinctClasses = async () => {
    const session = new Session({ executor: { spanCapacity: 256 } });
    const work = { kernel: 'spin' as const, totalNanos: 1e6 };
    for (let i = 0; i < 2000; i++) {
      session.executor.submitJob({
        class: `tenant-${i}`,
        tasks: [{ splits: [{ kind: 'intermediate', work }] }],
      });
    }
    (session.backend as SimBackend).runUntilIdle();
    const names = internals(session.executor).spans.classNames.length;
    const latency = session.stats.latency.read();
    await session.close();
    return { names, latency };
  };

  it('percentile tables keep at most 32 classes, the rest share one (other) row', async () => {
    const { latency } = await distinctClasses();
    const rows = Object.keys(latency.byClass);
    expect(rows).toHaveLength(33);
    expect(rows).toContain('(other)');
    expect(latency.byClass['(other)']!.count).toBe(2000 - 32);
  });

  // Regression: `SpanRing.internClass` once kept every distinct class ever submitted for the
  // engine's life, so a client submitting jobs under ever-new class names (a tenant or query id)
  // grew `classNames` and `classIndex` without bound.
  it('the span ring interns no more class names than it can hold spans', async () => {
    const { names } = await distinctClasses();
    expect(names).toBeLessThanOrEqual(256);
  });
});

/**
 * Two user-module splits take turns on one worker (one runs while the other waits with its
 * yielded state); then their job is cancelled. Run once, read by the two tests below.
 */
let moduleRun: Promise<{ quantaBefore: number; counters: Counters; kept: number }> | null = null;
function cancelModuleJob() {
  return (moduleRun ??= (async () => {
    const backend = new ThreadsBackend({ workers: 1 });
    const ex = new Executor(backend, { workers: 1, quantumMs: 2, policy: 'fifo' });
    try {
      const work = {
        kernel: fixture('count-up.mjs', 'countUp'),
        input: { i: 0, target: 1e9, quanta: 0 },
        totalNanos: 1,
      };
      const job = ex.submitJob({
        class: 'module',
        tasks: [{ splits: [0, 1].map(() => ({ kind: 'intermediate' as const, work })) }],
      });
      await vi.waitFor(() => expect(ex.spans.total).toBeGreaterThanOrEqual(3), {
        timeout: 30_000,
      });
      const quantaBefore = ex.counters.quanta;
      ex.cancelJob(job);
      await ex.drain();
      const kept = (backend as unknown as { moduleState: Map<number, unknown> }).moduleState.size;
      return { quantaBefore, counters: ex.counters, kept };
    } finally {
      await ex.close();
    }
  })());
}

describe('the threads backend', () => {
  it('cancels a job of user-module splits that yield state between quanta', async () => {
    const { quantaBefore, counters } = await cancelModuleJob();
    expect(quantaBefore).toBeGreaterThanOrEqual(3); // both splits had yielded state
    expect(counters).toMatchObject({ cancelled: 1, live: 0, splitsCancelled: 2 });
  });

  // Regression guard (`ThreadsBackend.moduleState`): the state a user module yields is kept by
  // split id until that split's next quantum; a split cancelled while queued or blocked never runs
  // again, so the executor tells the backend (`Bookkeeping.cancelSplit`, executor-bookkeeping.ts) and the state is dropped.
  it('forgets the yielded state of splits whose job was cancelled', async () => {
    const { kept } = await cancelModuleJob();
    expect(kept).toBe(0);
  });
});
