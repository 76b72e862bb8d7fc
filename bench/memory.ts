// Memory is bounded by design (issue: rings and caps, not growing arrays). The short version of
// bench/soak.ts for `npm run bench`: a live-app Session on the simulator (looping workload, frames
// serialised as a transport would, an operator switching policies and cancelling jobs), heap after
// a warm-up vs heap after 5× more work. `memory.heap_growth_ratio`: value = late heap / early heap
// (both after a full GC), baseline 1.0 (flat); lower is better, ≈ 1 means nothing accumulates.
// The helpers below are shared with bench/soak.ts.
import type { PolicyName } from '../shared/config.ts';
import { liveWorkloads } from '../engine/host/server/live-workloads.ts';
import { Session } from '../engine/host/session/index.ts';
import { SimBackend } from '../engine/runtime/sim/index.ts';
import type { BenchReport } from './report.ts';
import { forceGc } from './gc.ts';

const MB = 1024 * 1024;

/** heapUsed after two full collections (the second frees what the first only finalised), MB. */
export function settledHeapMb(): number {
  forceGc();
  forceGc();
  return process.memoryUsage().heapUsed / MB;
}

/**
 * A steady, open-ended mix for long runs: short interactive queries, leaf splits that block on
 * I/O between calls, pure sleeps (blocked path, no CPU) and a periodic scan. At `load` 1 it asks
 * for about 0.12 cores of work, so a soak on real threads leaves a shared machine usable and the
 * engine keeps up (a backlog would grow memory for a reason that is not a leak).
 */
export function churnWorkload(load = 1) {
  return {
    name: 'memory-churn',
    seed: 11,
    // Arrivals are open-ended in a live session; durationMs only satisfies the schema.
    durationMs: 24 * 3_600_000,
    config: { policy: 'mlfq', quantumMs: 10, levelThresholdsMs: [0, 10, 100, 600, 3000] },
    classes: [
      {
        name: 'interactive',
        arrival: { kind: 'poisson', rate: 10 * load },
        splits: { intermediate: 2 },
        work: { kernel: 'hash', totalMs: { kind: 'exponential', meanMs: 2 } },
        basePriority: 10,
      },
      {
        name: 'io',
        arrival: { kind: 'poisson', rate: 4 * load },
        splits: { leaf: 2 },
        work: { kernel: 'hash', totalMs: 6, perCallMs: 2, blockedMs: 20 },
        basePriority: 40,
      },
      {
        name: 'sleepy',
        arrival: { kind: 'poisson', rate: 5 * load },
        splits: { intermediate: 1 },
        work: { kernel: 'sleep', totalMs: 50 },
        basePriority: 70,
      },
      {
        name: 'scan',
        arrival: { kind: 'periodic', everyMs: 20_000 / load },
        tasks: 4,
        splits: { leaf: 4 },
        work: { kernel: 'hash', totalMs: { kind: 'uniform', minMs: 20, maxMs: 40 } },
        basePriority: 90,
      },
    ],
  };
}

const POLICY_CYCLE: readonly PolicyName[] = ['mlfq', 'fair', 'priority', 'fifo'];

/**
 * What an operator does to a live app, one step per call: switch policy, cancel and reprioritize
 * live jobs, retune a knob, reconnect a client (snapshot). Returns the snapshot's size in bytes
 * when it took one, else 0. Every path that could leave something behind gets exercised.
 */
export async function operatorStep(session: Session, step: number): Promise<number> {
  const policy = POLICY_CYCLE[step % POLICY_CYCLE.length]!;
  await session.handleCommand({ type: 'setPolicy', policy });
  const live = session.executor
    .jobs(40)
    .filter((j) => j.state === 'running' || j.state === 'queued');
  for (const j of live.slice(0, 3)) await session.handleCommand({ type: 'cancelJob', jobId: j.id });
  const other = live[3];
  if (other !== undefined) {
    await session.handleCommand({ type: 'reprioritize', jobId: other.id, priority: step % 101 });
  }
  const m = step % 2 === 0 ? 2 : 4;
  await session.handleCommand({ type: 'configure', config: { levelTimeMultiplier: m } });
  if (step % 4 !== 0) return 0;
  const snap = await session.handleCommand({ type: 'snapshot' });
  return JSON.stringify(snap).length;
}

/** Engine structures a long run could grow, read through their own size getters (see the test). */
export interface Retained {
  liveJobs: number;
  splits: number;
  tasks: number;
  queued: number;
  events: number;
  /** Sim: pending events in the heap; threads: pending timers. */
  pending: number;
}

export function retained(session: Session): Retained {
  const backend = session.backend as unknown as {
    pendingEvents?: number;
    timers?: { size: number };
  };
  const held = session.executor.heldRecords;
  return {
    liveJobs: session.executor.counters.live,
    splits: held.splits,
    tasks: held.tasks,
    queued: session.executor.policy.size,
    events: Math.min(session.executor.events.total, session.executor.events.capacity),
    pending: backend.pendingEvents ?? backend.timers?.size ?? 0,
  };
}

/** Least-squares slope of y over x, with its standard error (0 when it cannot be estimated). */
export function slope(xs: readonly number[], ys: readonly number[]): { slope: number; se: number } {
  const n = xs.length;
  if (n < 2) return { slope: 0, se: 0 };
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
  }
  if (sxx === 0) return { slope: 0, se: 0 };
  const b = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - my - b * (xs[i]! - mx)) ** 2;
  const se = n > 2 ? Math.sqrt(sse / (n - 2) / sxx) : 0;
  return { slope: b, se };
}

/** A looping live-app session on the simulator, running `CHURN_WORKLOAD` or a preset. */
export async function simSession(workload: string, frameHz = 10, load = 1): Promise<Session> {
  const session = new Session({
    backend: new SimBackend({ workers: 4, seed: 1 }),
    frameHz,
    workloads: liveWorkloads({ loop: true }),
  });
  const r =
    workload === 'churn'
      ? await session.handleCommand({ type: 'loadWorkload', workload: churnWorkload(load) })
      : await session.handleCommand({ type: 'runPreset', preset: workload });
  if (!r.ok) throw new Error(`memory bench: ${workload} did not start: ${r.error.message}`);
  return session;
}

/**
 * Runs `minutes` of virtual time in one-minute steps, taking an operator step each minute. Frames
 * are built (and serialised, a transport's work) every `FRAME_EVERY_S` virtual seconds rather than
 * at 10 Hz: building one costs far more than simulating its interval, and frames retain nothing.
 */
const FRAME_EVERY_S = 10;
async function drive(session: Session, minutes: number, step0: number): Promise<number> {
  let step = step0;
  for (let m = 0; m < minutes; m++) {
    for (const frame of session.advance(60_000)) JSON.stringify(frame);
    await operatorStep(session, step++);
  }
  return step;
}

async function growth(report: BenchReport, name: string, warmMinutes: number, factor: number) {
  const session = await simSession('churn', 1 / FRAME_EVERY_S, 2);
  const start = performance.now();
  const step = await drive(session, warmMinutes, 0);
  const early = settledHeapMb();
  const before = session.executor.counters;
  await drive(session, warmMinutes * factor, step);
  const late = settledHeapMb();
  const after = session.executor.counters;
  const wallS = (performance.now() - start) / 1000;
  await session.close();
  report.add(name, late / early, 'x', 1);
  console.log(
    `  heap ${early.toFixed(1)} → ${late.toFixed(1)} MB after ${factor}× more work: ` +
      `${warmMinutes * factor} virtual min, ${(after.submitted - before.submitted).toLocaleString('en-US')} jobs, ` +
      `${(after.quanta - before.quanta).toLocaleString('en-US')} quanta (${wallS.toFixed(1)} s wall)`,
  );
}

export async function run(report: BenchReport): Promise<void> {
  // Warm-up: every policy has run once (operator steps rotate them each minute), rings are full.
  await growth(report, 'memory.heap_growth_ratio', 4, 5);
}

/** One sample of a soak, as its verdict reads it: seconds, heap and RSS in MB, queued work. */
export interface SoakPoint {
  t: number;
  heapMb: number;
  rssMb: number;
  /** Work not done yet (live splits, queued runs): growing, it grows memory for a reason that is not a leak. */
  backlog: number;
}

/**
 * A soak's verdict from the second half of its samples: the least-squares slope of heapUsed over
 * time (± 2 standard errors) against `maxSlope`. Prints it and returns the exit code: 0 FLAT or
 * INCONCLUSIVE (too noisy: run longer), 1 GROWING, 2 OVERLOADED (the backlog grew: not a leak).
 */
export function heapVerdict(
  samples: readonly SoakPoint[],
  o: { maxSlope: number; unit: string; backlog: string },
): number {
  const half = samples.slice(Math.floor(samples.length / 2));
  const hours = half.map((s) => s.t / 3600);
  const heap = slope(
    hours,
    half.map((s) => s.heapMb),
  );
  const rss = slope(
    hours,
    half.map((s) => s.rssMb),
  );
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  console.log(
    `heapUsed ${first.heapMb.toFixed(2)} → ${last.heapMb.toFixed(2)} MB; ` +
      `second-half slope ${heap.slope.toFixed(2)} ± ${(2 * heap.se).toFixed(2)} ${o.unit} ` +
      `(rss ${rss.slope.toFixed(1)} ± ${(2 * rss.se).toFixed(1)})`,
  );
  const backlog = slope(
    hours,
    half.map((s) => s.backlog),
  );
  const backlogHalf = half[0]!.backlog;
  const overloaded =
    backlog.slope - 2 * backlog.se > 0 && last.backlog > 2 * Math.max(50, backlogHalf);
  const low = heap.slope - 2 * heap.se;
  const high = heap.slope + 2 * heap.se;
  let result: string;
  let code = 0;
  if (overloaded) {
    result = `OVERLOADED (${o.backlog} ${backlogHalf} → ${last.backlog}: lower --load or add --workers)`;
    code = 2;
  } else if (high <= o.maxSlope) result = `FLAT (below ${o.maxSlope} ${o.unit})`;
  else if (low > o.maxSlope) {
    result = `GROWING (above ${o.maxSlope} ${o.unit})`;
    code = 1;
  } else result = `INCONCLUSIVE (too noisy for ${o.maxSlope} ${o.unit}: run longer)`;
  console.log(`verdict: ${result}`);
  return code;
}
