/**
 * The cluster backend against a real Redis on loopback (test/redis-server.ts) and three worker
 * nodes in this process (each its own worker threads and Redis connections; separate processes
 * would only add contention on a small machine):
 * - `cluster.quantum_gap_ms`: median gap between one quantum's end and the next quantum's start
 *   of a split on one worker (1 ms quanta) — what a dispatch costs; baseline the threads backend.
 *   Lower is better; value − baseline is the latency the cluster adds per quantum.
 * - `cluster.utilisation_3x1`: busy / (3 × wall) over 3 nodes × 1 thread with 100 ms quanta;
 *   baseline 3 local threads. Higher is better.
 * - `cluster.small_tenant_p95_*`: two tenants over 3 slots, one flooding (one query of FLOOD
 *   splits of 20 ms), one submitting a 20 ms job every 100 ms: the small tenant's p95 latency
 *   (submit to end) under SchedLab `fair` and `mlfq` (query fairness) vs plain BullMQ workers on
 *   the same Redis in FIFO order, and with BullMQ priorities set by hand per tenant. Lower is
 *   better; ratio < 1 means SchedLab is better.
 */
import { Queue, QueueEvents, Worker as BullWorker } from 'bullmq';
import { startTestRedis, type TestRedis } from '../test/redis-server.ts';
import type { Backend } from '../engine/runtime/backend.ts';
import { ClusterBackend } from '../engine/runtime/cluster/cluster-backend.ts';
import { connectionOptions, parseRedisUrl } from '../engine/runtime/cluster/redis-url.ts';
import { WorkerNode } from '../engine/runtime/cluster/worker-node.ts';
import { Executor } from '../engine/runtime/executor/executor.ts';
import { intermediates, oneTaskJob, spin } from '../engine/runtime/executor/testing.ts';
import { ThreadsBackend } from '../engine/runtime/threads/threads-backend.ts';
import type { EngineConfigPatch } from '../shared/config.ts';
import type { BenchReport } from './report.ts';

const FLOOD = 300;
const SMALL_EVERY_MS = 100;
const SMALL_JOBS = 15;
const SPIN_MS = 20;

export async function run(report: BenchReport): Promise<void> {
  const redis = await startTestRedis();
  const nodes = await Promise.all(
    ['b1', 'b2', 'b3'].map((name) => WorkerNode.start({ redis: redis.url, threads: 1, name })),
  );
  try {
    const gap = await quantumGap(await cluster(redis, 1));
    const threadsGap = await quantumGap(await threads(1));
    report.add('cluster.quantum_gap_ms', gap, 'ms', threadsGap);
    console.log(`  (added per quantum over threads: ${(gap - threadsGap).toFixed(3)} ms)`);

    const util = await utilisation(await cluster(redis, 3));
    report.add('cluster.utilisation_3x1', util, 'share', await utilisation(await threads(3)));

    const fifo = await bullmqSmallTenant(redis, false);
    const prioritised = await bullmqSmallTenant(redis, true);
    for (const policy of ['fair', 'mlfq'] as const) {
      const ours = await schedlabSmallTenant(await cluster(redis, 3), {
        policy,
        fairness: 'query',
        quantumMs: SPIN_MS,
      });
      report.add(`cluster.small_tenant_p95_${policy}_vs_bullmq_fifo`, ours, 'ms', fifo);
      report.add(
        `cluster.small_tenant_p95_${policy}_vs_bullmq_priorities`,
        ours,
        'ms',
        prioritised,
      );
    }
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
    await redis.stop();
  }
}

async function cluster(redis: TestRedis, workers: number): Promise<Backend> {
  const backend = new ClusterBackend({ redis: redis.url, workers });
  await backend.connect();
  await backend.waitForSlots(workers, 30_000);
  return backend;
}

async function threads(workers: number): Promise<Backend> {
  const backend = new ThreadsBackend({ workers });
  await backend.ready();
  return backend;
}

/** Median gap (ms) between consecutive quanta of one split on one worker. */
async function quantumGap(backend: Backend): Promise<number> {
  const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 1 });
  try {
    ex.submitJob(oneTaskJob('warm', intermediates(1, spin(50))));
    await ex.drain();
    const from = ex.spans.read(0).cursor;
    ex.submitJob(oneTaskJob('gap', intermediates(1, spin(300))));
    await ex.drain();
    const s = ex.spans.read(from).columns;
    const gaps: number[] = [];
    for (let i = 1; i < s.count; i++) gaps.push((s.start[i]! - s.end[i - 1]!) / 1e6);
    return median(gaps);
  } finally {
    await ex.close();
  }
}

async function utilisation(backend: Backend): Promise<number> {
  const ex = new Executor(backend, { workers: 3, policy: 'fifo', quantumMs: 100 });
  try {
    ex.submitJob(oneTaskJob('warm', intermediates(3, spin(50))));
    await ex.drain();
    const busy0 = ex.counters.busyNanos;
    const start = backend.now();
    ex.submitJob(oneTaskJob('util', intermediates(6, spin(600))));
    await ex.drain();
    return (ex.counters.busyNanos - busy0) / (3 * (backend.now() - start));
  } finally {
    await ex.close();
  }
}

async function schedlabSmallTenant(backend: Backend, config: EngineConfigPatch): Promise<number> {
  const ex = new Executor(backend, { workers: 3, ...config });
  const submitted = new Map<number, number>();
  const latencies: number[] = [];
  ex.onJobEnd((e) => {
    const at = submitted.get(e.jobId);
    if (at !== undefined) latencies.push((backend.now() - at) / 1e6);
  });
  try {
    ex.submitJob(oneTaskJob('flood', intermediates(FLOOD, spin(SPIN_MS))));
    for (let i = 0; i < SMALL_JOBS; i++) {
      await sleep(SMALL_EVERY_MS);
      submitted.set(
        ex.submitJob(oneTaskJob('small', intermediates(1, spin(SPIN_MS)))),
        backend.now(),
      );
    }
    await ex.drain();
    return p95(latencies);
  } finally {
    await ex.close();
  }
}

/**
 * The same two tenants on plain BullMQ: one queue, 3 workers of concurrency 1, FIFO; or with
 * BullMQ priorities set by hand per tenant (the small tenant 1, the flood 2), which needs an
 * operator who knows in advance who floods.
 */
async function bullmqSmallTenant(redis: TestRedis, prioritised: boolean): Promise<number> {
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
  let ended = 0;
  const allEnded = new Promise<void>((resolve) => {
    events.on('completed', ({ jobId }) => {
      const at = submitted.get(jobId);
      if (at !== undefined) latencies.push(performance.now() - at);
      if (++ended === FLOOD + SMALL_JOBS) resolve();
    });
  });
  try {
    await queue.addBulk(
      Array.from({ length: FLOOD }, (_, i) => ({
        name: 'flood',
        data: { ms: SPIN_MS },
        opts: { jobId: `f${i}`, removeOnComplete: true, ...(prioritised ? { priority: 2 } : {}) },
      })),
    );
    for (let i = 0; i < SMALL_JOBS; i++) {
      await sleep(SMALL_EVERY_MS);
      const jobId = `s${i}`;
      submitted.set(jobId, performance.now());
      const priority = prioritised ? { priority: 1 } : {};
      await queue.add('small', { ms: SPIN_MS }, { jobId, removeOnComplete: true, ...priority });
    }
    await allEnded;
    return p95(latencies);
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] ?? 0;
}
