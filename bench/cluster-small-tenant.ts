/**
 * The cluster suite's small-tenant scenarios (bench/cluster.ts says what each figure is): a small
 * tenant's 20 ms job every 100 ms beside a flooding tenant over 3 workers, the small tenant's p95
 * latency (submit to end) under SchedLab and on plain BullMQ workers on the same Redis. One
 * scenario is one `Flood`: how many splits the flooding tenant submits at once and how long each
 * runs; the small tenant, the 3 workers and the censoring are the same in every scenario.
 */
import { Queue, QueueEvents, Worker as BullWorker } from 'bullmq';
import type { TestRedis } from '../test/redis-server.ts';
import type { Backend } from '../engine/runtime/backend.ts';
import { connectionOptions, parseRedisUrl } from '../engine/runtime/cluster/redis-url.ts';
import { Executor } from '../engine/runtime/executor/executor.ts';
import type { ExecutorOptions } from '../engine/runtime/executor/executor-options.ts';
import { runExecutorOptions } from '../engine/host/report/run-workload.ts';
import { intermediates, oneTaskJob, spin } from '../engine/runtime/executor/testing.ts';
import type { EngineConfigPatch } from '../shared/config.ts';
import type { BenchReport } from './report.ts';

/** The flooding tenant: one query of `splits` splits of `ms` of CPU each. */
export interface Flood {
  /** Put in the figures' names after `small_tenant_p95_` ('' for the first scenario). */
  readonly label: string;
  readonly splits: number;
  readonly ms: number;
}

const SMALL_EVERY_MS = 100;
const SMALL_JOBS = 20;
const SMALL_MS = 20;
/** The quantum: the small job's length, so a quantum boundary comes every 20 ms on each worker. */
const QUANTUM_MS = 20;
const CENSOR_MS = 3_000;
/** The executor as `schedlab run`/`serve` build it on the cluster, and with `--pipeline off`. */
const USERS = runExecutorOptions('cluster');
const ROUND_TRIP = runExecutorOptions('cluster', false);

/**
 * The figures of one scenario: `cluster.small_tenant_p95_<label><policy>_vs_bullmq_<fifo|
 * priorities>` for `fair` and `mlfq` on `cluster()` (3 workers); printed beside them, `fair`
 * with `--pipeline off` and on `threads()` (3 local threads), and the scenario's run time.
 */
export async function smallTenantFigures(
  report: BenchReport,
  redis: TestRedis,
  flood: Flood,
  backends: { cluster: () => Promise<Backend>; threads: () => Promise<Backend> },
): Promise<void> {
  const started = performance.now();
  const fifo = await bullmqSmallTenant(redis, flood, false);
  const prioritised = await bullmqSmallTenant(redis, flood, true);
  const name = (policy: string) => `cluster.small_tenant_p95_${flood.label}${policy}_vs_bullmq`;
  for (const policy of ['fair', 'mlfq'] as const) {
    const config = { policy, fairness: 'query', quantumMs: QUANTUM_MS } as const;
    const ours = await schedlabSmallTenant(await backends.cluster(), flood, config);
    report.add(`${name(policy)}_fifo`, ours, 'ms', fifo);
    report.add(`${name(policy)}_priorities`, ours, 'ms', prioritised);
  }
  // What the pipeline costs the small tenant: a newcomer may wait behind the quantum queued on
  // a node as well as the running one (context, not a bar).
  const fair = { policy: 'fair', fairness: 'query', quantumMs: QUANTUM_MS } as const;
  const off = await schedlabSmallTenant(await backends.cluster(), flood, fair, ROUND_TRIP);
  console.log(`  (the small tenant's p95 under fair, --pipeline off: ${off.toFixed(1)} ms)`);
  // The same executor and scenario on local threads: what the machine's load does to the small
  // tenant without Redis or nodes in the way (context for the figures above, not a bar).
  const local = await schedlabSmallTenant(await backends.threads(), flood, fair);
  console.log(`  (the small tenant's p95 under fair on 3 local threads: ${local.toFixed(0)} ms)`);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  (the six runs with a flood of ${flood.splits} × ${flood.ms} ms took ${seconds.toFixed(1)} s)`,
  );
}

/**
 * The small tenant's p95 (ms) beside `flood` on an executor over `backend`'s 3 workers. The flood
 * is not run to its end: the run stops CENSOR_MS after the last small job was submitted, and a
 * small job still waiting then counts with its latency so far.
 */
async function schedlabSmallTenant(
  backend: Backend,
  flood: Flood,
  config: EngineConfigPatch,
  options: ExecutorOptions = USERS,
): Promise<number> {
  const ex = new Executor(backend, { workers: 3, ...config }, options);
  const submitted = new Map<number, number>();
  const latencies: number[] = [];
  let done = () => {};
  const allDone = new Promise<void>((resolve) => (done = resolve));
  // A flood that ended, or a small job that did not succeed, would make the figure measure
  // something else (an idle cluster, a job that never ran): the run fails instead.
  let wrong: string | null = null;
  let floodId = -1;
  ex.onJobEnd((e) => {
    if (e.jobId === floodId) wrong ??= `the flood ended ${e.state} (${e.error ?? 'no error'})`;
    const at = submitted.get(e.jobId);
    if (at === undefined) return;
    if (e.state !== 'succeeded') wrong ??= `a small job ended ${e.state} (${e.error ?? ''})`;
    latencies.push((backend.now() - at) / 1e6);
    submitted.delete(e.jobId);
    if (latencies.length === SMALL_JOBS) done();
  });
  try {
    const floodJob = intermediates(flood.splits, spin(flood.ms));
    floodId = ex.submitJob(oneTaskJob('flood', floodJob, { tenant: 'flood' }));
    for (let i = 0; i < SMALL_JOBS; i++) {
      await sleep(SMALL_EVERY_MS);
      const job = oneTaskJob('small', intermediates(1, spin(SMALL_MS)), { tenant: 'small' });
      submitted.set(ex.submitJob(job), backend.now());
    }
    await Promise.race([allDone, sleep(CENSOR_MS)]);
    if (wrong !== null) throw new Error(`small tenant beside a flood of ${flood.ms} ms: ${wrong}`);
    for (const at of submitted.values()) latencies.push((backend.now() - at) / 1e6);
    return p95(latencies);
  } finally {
    await ex.close();
  }
}

/**
 * The same two tenants on plain BullMQ: one queue, 3 workers of concurrency 1, FIFO; or with
 * BullMQ priorities set by hand per tenant (the small tenant 1, the flood 2), which needs an
 * operator who knows in advance who floods. Each flood job does the computation of one flood
 * split in one piece (baselines/bullmq-spin.mjs), as BullMQ runs a job: to its end.
 */
async function bullmqSmallTenant(
  redis: TestRedis,
  flood: Flood,
  prioritised: boolean,
): Promise<number> {
  const connection = connectionOptions(parseRedisUrl(redis.url));
  const name = prioritised ? 'bench-priorities' : 'bench-fifo';
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection });
  await events.waitUntilReady();
  const processor = new URL('./baselines/bullmq-spin.mjs', import.meta.url);
  const workers = [0, 1, 2].map(
    () => new BullWorker(name, processor, { connection, concurrency: 1, useWorkerThreads: true }),
  );
  const submitted = new Map<string, number>();
  const latencies: number[] = [];
  const allEnded = new Promise<void>((resolve) => {
    events.on('completed', ({ jobId }) => {
      const at = submitted.get(jobId);
      if (at === undefined) return;
      latencies.push(performance.now() - at);
      submitted.delete(jobId);
      if (latencies.length === SMALL_JOBS) resolve();
    });
  });
  try {
    await queue.addBulk(
      Array.from({ length: flood.splits }, (_, i) => ({
        name: 'flood',
        data: { ms: flood.ms },
        opts: { jobId: `f${i}`, removeOnComplete: true, ...(prioritised ? { priority: 2 } : {}) },
      })),
    );
    for (let i = 0; i < SMALL_JOBS; i++) {
      await sleep(SMALL_EVERY_MS);
      const jobId = `s${i}`;
      submitted.set(jobId, performance.now());
      const priority = prioritised ? { priority: 1 } : {};
      await queue.add('small', { ms: SMALL_MS }, { jobId, removeOnComplete: true, ...priority });
    }
    await Promise.race([allEnded, sleep(CENSOR_MS)]);
    if ((await queue.getJobCountByTypes('waiting', 'prioritized')) === 0) {
      throw new Error(`BullMQ: the flood of ${flood.splits} jobs did not outlast the window`);
    }
    for (const at of submitted.values()) latencies.push(performance.now() - at);
    return p95(latencies);
  } finally {
    // The flood's waiting jobs go; the workers finish what they hold, then everything else goes.
    await queue.drain(true);
    await Promise.all(workers.map((w) => w.close()));
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] ?? 0;
}
