/**
 * The cluster backend against a real Redis on loopback (test/redis-server.ts) and three worker
 * nodes in this process (each its own worker threads and Redis connections; separate processes
 * would only add contention on a small machine):
 * - `cluster.quantum_gap_ms`: median gap between one quantum's end and the next quantum's start
 *   on one worker (1 ms quanta, three splits backlogged on it), through the executor as
 *   `schedlab run`/`serve` build it on the cluster (`runExecutorOptions('cluster')`: the pipeline
 *   on, so the worker's next quantum is queued on its node behind the running one): what a
 *   dispatch costs a busy worker on the path users run. Baseline the threads backend under the
 *   same executor options. Lower is better; value − baseline is the latency the cluster adds.
 * - `cluster.quantum_gap_ms_round_trip`: the same gap of a single split on one worker through an
 *   executor without the pipeline (`--pipeline off`) — a full round trip per quantum. It is also
 *   what a lone split gets with the pipeline on: its next quantum cannot be sent before the last
 *   one's end. Baseline threads, same executor options.
 * - `cluster.pipelined_gap_ms`: the backend alone, no executor: three splits on one worker whose
 *   queue a driver keeps full (`feed`: `enqueue` while `queueableWorkers` offers room). Baseline
 *   the threads backend driven the same way.
 * - `cluster.utilisation_3x1`: busy / (3 × wall) of six 600 ms splits over 3 nodes × 1 thread with
 *   100 ms quanta, through the executor as users run it on the cluster (pipeline on);
 *   `cluster.utilisation_3x1_round_trip` the executor without it (one round trip per quantum);
 *   `cluster.utilisation_3x1_pipelined` the backend alone through `feed`. Baselines 3 local
 *   threads under the same executor options (or the same driver).
 * - `cluster.small_tenant_p95_<policy>_vs_bullmq_<fifo|priorities>` (cluster-small-tenant.ts): two
 *   tenants over 3 workers (the executor as users run it), one flooding (one query of 10,000
 *   splits of 20 ms, `SHORT_FLOOD`), one submitting a 20 ms job every 100 ms: the small tenant's
 *   p95 latency (submit to end) under SchedLab `fair` and `mlfq` (query fairness, 20 ms quanta) vs
 *   plain BullMQ workers on the same Redis in FIFO order, and with BullMQ priorities set by hand
 *   per tenant (each BullMQ job does the same computation as a split, baselines/bullmq-spin.mjs).
 *   Lower is better; ratio < 1 means SchedLab is better. The flood is not run to its end: a run
 *   stops 3 s after the last small job was submitted, and a small job still waiting then counts
 *   with its latency so far — a lower bound, so the FIFO baseline (whose small jobs wait behind
 *   the whole flood, ≈ 10,000 × 20 ms / 3) is flattered, never the other way. With hand-set
 *   priorities a small job waits for one running 20 ms job, about what a quantum boundary gives.
 * - `cluster.small_tenant_p95_long_flood_<policy>_vs_bullmq_<fifo|priorities>`: the same with a
 *   flood of long splits (`LONG_FLOOD`: 30 × 1 s of CPU; BullMQ runs each as one 1 s job, to its
 *   end, as it runs any job). What preemption at quantum boundaries buys over hand-set
 *   priorities: a top-priority BullMQ job still waits for a node to finish its current long job,
 *   where SchedLab cuts the flood's splits into 20 ms quanta and runs the small job at the next
 *   boundary (with the pipeline, behind the quantum queued there too: `--pipeline off` printed
 *   beside it). 1 s: 50 quanta, a heavy tenant's job (a report, a batch of images) rather than a
 *   task-sized one, and long enough that waiting for one to end dwarfs a quantum. 30 of them:
 *   the measured window is at most 2 s of small submissions + 3 s of censoring, so 3 nodes can
 *   run at most 15 of them in it; twice that keeps the flood backlogged to the end while each
 *   run stays a few seconds.
 * - `cluster.jain_equal_tenants_fair`: Jain's index (Σx)² / (n·Σx²) of the charged time of four
 *   equal tenants (each one query of the same splits, submitted one tenant after another) over 3
 *   workers under `fair` with query fairness (the executor as users run it), read when the first tenant's query ends (until then
 *   all four are backlogged). Baseline the bar, 0.95.
 */
import { startTestRedis, type TestRedis } from '../test/redis-server.ts';
import type { Backend, Dispatch, QuantumEnd } from '../engine/runtime/backend.ts';
import { ClusterBackend } from '../engine/runtime/cluster/cluster-backend.ts';
import { connectionOptions, parseRedisUrl } from '../engine/runtime/cluster/redis-url.ts';
import { WorkerNode } from '../engine/runtime/cluster/worker-node.ts';
import { Executor } from '../engine/runtime/executor/executor.ts';
import type { ExecutorOptions } from '../engine/runtime/executor/executor-options.ts';
import { runExecutorOptions } from '../engine/host/report/run-workload.ts';
import { intermediates, oneTaskJob, spin } from '../engine/runtime/executor/testing.ts';
import { ThreadsBackend } from '../engine/runtime/threads/threads-backend.ts';
import { Jain } from '../engine/host/report/summary-stats.ts';
import { Redis } from 'ioredis';
import type { BenchReport } from './report.ts';
import { smallTenantFigures, type Flood } from './cluster-small-tenant.ts';

const SPIN_MS = 20;
/** The small-tenant scenarios' floods (see the header: why 1 s splits, and why 30 of them). */
const SHORT_FLOOD: Flood = { label: '', splits: 10_000, ms: SPIN_MS };
const LONG_FLOOD: Flood = { label: 'long_flood_', splits: 30, ms: 1_000 };
const TENANTS = 4;
const TENANT_SPLITS = 40;
/** The executor as `schedlab run`/`serve` build it on the cluster, and with `--pipeline off`. */
const USERS = runExecutorOptions('cluster');
const ROUND_TRIP = runExecutorOptions('cluster', false);

export async function run(report: BenchReport): Promise<void> {
  const redis = await startTestRedis();
  const nodes = await Promise.all(
    ['b1', 'b2', 'b3'].map((name) => WorkerNode.start({ redis: redis.url, threads: 1, name })),
  );
  try {
    const gapRun: { quanta: number; cold?: number } = { quanta: 0 };
    const threadsRun: { quanta: number; cold?: number } = { quanta: 0 };
    let before = await commandCounts(redis);
    const gap = await quantumGap(await cluster(redis, 1), USERS, 3, gapRun);
    logCommands('pipelined', diffCounts(before, await commandCounts(redis)), gapRun.quanta);
    const threadsGap = await quantumGap(await threads(1), USERS, 3, threadsRun);
    report.add('cluster.quantum_gap_ms', gap, 'ms', threadsGap);
    console.log(`  (added per quantum over threads: ${(gap - threadsGap).toFixed(3)} ms)`);
    const coldAdded = (gapRun.cold ?? NaN) - (threadsRun.cold ?? NaN);
    console.log(
      `  (cold, the first ${GAP_QUANTA} quanta of a fresh executor: ${gapRun.cold?.toFixed(3)} ms, ` +
        `${coldAdded.toFixed(3)} ms over threads)`,
    );
    // Three splits of 1 ms quanta keep at most 3 ms of work on the worker, less than a loaded
    // round trip: with eight, QUEUE_AHEAD_NANOS of it can be queued (context, not a figure).
    const eight = await quantumGap(await cluster(redis, 1), USERS, 8);
    console.log(`  (the same gap with eight splits backlogged: ${eight.toFixed(3)} ms)`);

    before = await commandCounts(redis);
    const trip = await quantumGap(await cluster(redis, 1), ROUND_TRIP, 1, gapRun);
    logCommands('round trip', diffCounts(before, await commandCounts(redis)), gapRun.quanta);
    const threadsTrip = await quantumGap(await threads(1), ROUND_TRIP, 1);
    report.add('cluster.quantum_gap_ms_round_trip', trip, 'ms', threadsTrip);
    console.log(`  (added per round trip over threads: ${(trip - threadsTrip).toFixed(3)} ms)`);

    const piped = await pipelinedGap(await cluster(redis, 1));
    report.add('cluster.pipelined_gap_ms', piped, 'ms', await pipelinedGap(await threads(1)));
    console.log(`  (a worker fed by a driver, no executor: ${piped.toFixed(3)} ms between quanta)`);

    const utilised = await cluster(redis, 3);
    report.add(
      'cluster.utilisation_3x1',
      await utilisation(utilised, USERS),
      'share',
      await utilisation(await threads(3), USERS),
    );
    const lead = (utilised.bindLeadNanos ?? 0) / 1e6;
    console.log(`  (late binding: the lead had adapted to ${lead.toFixed(1)} ms by the run's end)`);
    report.add(
      'cluster.utilisation_3x1_round_trip',
      await utilisation(await cluster(redis, 3), ROUND_TRIP),
      'share',
      await utilisation(await threads(3), ROUND_TRIP),
    );
    report.add(
      'cluster.utilisation_3x1_pipelined',
      await pipelinedUtilisation(await cluster(redis, 3)),
      'share',
      await pipelinedUtilisation(await threads(3)),
    );

    const jain = await equalTenantsJain(await cluster(redis, 3));
    report.add('cluster.jain_equal_tenants_fair', jain, 'index', 0.95);

    const backends = { cluster: () => cluster(redis, 3), threads: () => threads(3) };
    await smallTenantFigures(report, redis, SHORT_FLOOD, backends);
    await smallTenantFigures(report, redis, LONG_FLOOD, backends);
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
    await redis.stop();
  }
}

async function cluster(redis: TestRedis, workers: number): Promise<Backend> {
  const backend = new ClusterBackend({ redis: redis.url, workers });
  await backend.connect();
  await backend.waitForWorkers(workers, 30_000);
  return backend;
}

async function threads(workers: number): Promise<Backend> {
  const backend = new ThreadsBackend({ workers });
  await backend.ready();
  return backend;
}

/**
 * Commands only clients send here, never BullMQ's scripts inside Redis (`INFO commandstats`
 * counts both; a MONITOR of the same run tells them apart): what a quantum costs in requests.
 * The heartbeats' `HSET`/`SET` (also run by scripts) are left out: a few per second.
 */
const TOP_LEVEL = new Set([
  'evalsha',
  'eval',
  'bzpopmin',
  'blmpop',
  'rpush',
  'pexpire',
  'multi',
  'exec',
  'publish',
  'hgetall',
  'mget',
]);

/** Calls per command so far (`INFO commandstats`). */
async function commandCounts(redis: TestRedis): Promise<Map<string, number>> {
  const client = new Redis(connectionOptions(parseRedisUrl(redis.url)));
  try {
    const text = await client.info('commandstats');
    const out = new Map<string, number>();
    for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out.set(m[1]!, Number(m[2]));
    return out;
  } finally {
    client.disconnect();
  }
}

function diffCounts(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, n] of b) if (n - (a.get(name) ?? 0) > 0) out.set(name, n - (a.get(name) ?? 0));
  return out;
}

/** Redis commands per quantum of a gap run (`INFO commandstats` before and after it). */
function logCommands(label: string, used: Map<string, number>, quanta: number): void {
  const per = (n: number) => (n / quanta).toFixed(2);
  const scripts = used.get('evalsha') ?? 0;
  const top = [...used].filter(([name]) => TOP_LEVEL.has(name)).reduce((a, [, n]) => a + n, 0);
  const all = [...used.values()].reduce((a, b) => a + b, 0);
  console.log(
    `  (${label}: Redis per quantum over ${quanta} quanta: ${per(top)} commands sent, ${per(scripts)} of them BullMQ scripts; ${per(all)} run inside Redis)`,
  );
}

/**
 * Quanta run before the measured ones, and quanta measured, in `quantumGap`. The warm-up is long
 * enough for both sides to reach their steady state — the coordinator's and the node's code
 * compiled by the JIT, BullMQ's scripts loaded, the connections' buffers grown: over the first
 * 300 quanta of a fresh executor the gap on the cluster was 0.1–1.5 ms above its steady value on
 * this machine. The same warm-up runs on threads, and the cold gap (the warm-up's first
 * `GAP_QUANTA`) is printed beside the figure.
 */
const GAP_WARM_QUANTA = 900;
const GAP_QUANTA = 300;

/**
 * Median gap (ms) between consecutive quanta on one worker: `splits` splits of `GAP_QUANTA` ms of
 * work in all, 1 ms quanta, through an executor with `options`, after `GAP_WARM_QUANTA` quanta of
 * the same shape; `cold` gets the median over the warm-up's first `GAP_QUANTA` quanta.
 */
async function quantumGap(
  backend: Backend,
  options: ExecutorOptions,
  splits: number,
  counted?: { quanta: number; cold?: number },
): Promise<number> {
  const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 1 }, options);
  try {
    const medianGap = async (name: string, totalMs: number, keep: number): Promise<number> => {
      const from = ex.spans.read(0).cursor;
      ex.submitJob(oneTaskJob(name, intermediates(splits, spin(totalMs / splits))));
      await ex.drain();
      return median(gapsOf(ex.spans.read(from).columns, keep));
    };
    const cold = await medianGap('warm', GAP_WARM_QUANTA, GAP_QUANTA);
    const gap = await medianGap('gap', GAP_QUANTA, Infinity);
    if (counted !== undefined) {
      counted.quanta = ex.spans.total; // the warm-up's quanta too
      counted.cold = cold;
    }
    return gap;
  } finally {
    await ex.close();
  }
}

/** Gaps (ms) between consecutive quanta in start order, over the first `keep` of them. */
function gapsOf(
  s: { count: number; start: ArrayLike<number>; end: ArrayLike<number> },
  keep: number,
): number[] {
  const order = Array.from({ length: s.count }, (_, i) => i).sort(
    (a, b) => s.start[a]! - s.start[b]!,
  );
  const gaps: number[] = [];
  for (let i = 1; i < Math.min(order.length, keep); i++) {
    gaps.push((s.start[order[i]!]! - s.end[order[i - 1]!]!) / 1e6);
  }
  return gaps;
}

/**
 * Runs `splits` spin splits of `totalMs` in quanta of `quantumMs` on `backend`, as an executor
 * that keeps every busy worker's queue full would (`enqueue` while `queueableWorkers` offers
 * room, round robin): the ends, and the wall time from the first dispatch to the last end.
 */
async function feed(
  backend: Backend,
  splits: number,
  totalMs: number,
  quantumMs: number,
): Promise<{ ends: QuantumEnd[]; wallNanos: number }> {
  const done = new Float64Array(splits);
  const ready: number[] = Array.from({ length: splits }, (_, i) => i);
  const ends: QuantumEnd[] = [];
  let finished = 0;
  const dispatch = (splitId: number, workerId: number): Dispatch => ({
    splitId,
    workerId,
    quantumNanos: quantumMs * 1e6,
    work: { kernel: 'spin', totalNanos: totalMs * 1e6 },
    doneNanos: done[splitId]!,
  });
  const fill = () => {
    for (const w of backend.idleWorkers()) {
      if (ready.length === 0) return;
      backend.start(dispatch(ready.shift()!, w));
    }
    for (let more = true; more && ready.length > 0;) {
      more = false;
      for (const w of backend.queueableWorkers?.() ?? []) {
        if (ready.length === 0) return;
        backend.enqueue!(dispatch(ready.shift()!, w));
        more = true;
      }
    }
  };
  const start = backend.now();
  await new Promise<void>((resolve) => {
    backend.setListener({
      quantumEnd: (end) => {
        ends.push(end);
        done[end.splitId]! += end.workNanos;
        if (end.outcome === 'finished') {
          if (++finished === splits) resolve();
        } else ready.push(end.splitId);
        fill();
      },
    });
    fill();
  });
  return { ends, wallNanos: backend.now() - start };
}

/** Median gap (ms) between consecutive quanta on one worker fed three splits ahead of time. */
async function pipelinedGap(backend: Backend): Promise<number> {
  try {
    const { ends } = await feed(backend, 3, 100, 1);
    const sorted = ends.slice(10).sort((a, b) => a.startNanos - b.startNanos);
    const gaps: number[] = [];
    for (let i = 1; i < sorted.length; i++) {
      gaps.push((sorted[i]!.startNanos - sorted[i - 1]!.endNanos) / 1e6);
    }
    return median(gaps);
  } finally {
    await backend.close();
  }
}

/** busy / (3 × wall) of six 600 ms splits in 100 ms quanta over 3 workers, quanta queued ahead. */
async function pipelinedUtilisation(backend: Backend): Promise<number> {
  try {
    const { ends, wallNanos } = await feed(backend, 6, 600, 100);
    return ends.reduce((sum, e) => sum + e.ranNanos, 0) / (3 * wallNanos);
  } finally {
    await backend.close();
  }
}

/**
 * Jain's index of the charged time of TENANTS equal tenants, read when the first one's query
 * ends (all of them backlogged until then).
 */
async function equalTenantsJain(backend: Backend): Promise<number> {
  const ex = new Executor(
    backend,
    { workers: 3, policy: 'fair', fairness: 'query', quantumMs: SPIN_MS },
    USERS,
  );
  try {
    const first = new Promise<number[]>((resolve) => {
      ex.onJobEnd(() => resolve(ex.tenants().map((t) => t.scheduledNanos)));
    });
    for (let t = 0; t < TENANTS; t++) {
      ex.submitJob(
        oneTaskJob('equal', intermediates(TENANT_SPLITS, spin(3 * SPIN_MS)), { tenant: `t${t}` }),
      );
    }
    const x = await first;
    console.log(`  (charged ms per tenant: ${x.map((v) => Math.round(v / 1e6)).join(', ')})`);
    const jain = new Jain(); // the run report's own index (docs/metrics.md)
    for (const v of x) jain.add(v);
    return x.length === TENANTS ? jain.value : 0;
  } finally {
    await ex.close();
  }
}

/** busy / (3 × wall) of six 600 ms splits in 100 ms quanta over 3 workers, an executor's way. */
async function utilisation(backend: Backend, options: ExecutorOptions): Promise<number> {
  const ex = new Executor(backend, { workers: 3, policy: 'fifo', quantumMs: 100 }, options);
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}
