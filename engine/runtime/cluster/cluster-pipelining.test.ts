/**
 * The cluster backend's queued dispatches (`queueableWorkers`/`enqueue`), driven directly as an
 * executor would: quanta queued behind a running one sit on the node and run there in order, a
 * queued one can be cancelled, and a node lost with quanta running and queued ends each once —
 * the running one charged by rule (cluster-ends.ts `lostEnd`), those behind it offered again.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import type { Dispatch, QuantumEnd } from '../backend.ts';
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { Executor } from '../executor/executor.ts';
import { afterEachEnqueue, intermediates, oneTaskJob, spin } from '../executor/testing.ts';
import { ClusterBackend } from './cluster-backend.ts';
import { BIND_LEAD_MIN_NANOS, BIND_LEAD_NANOS, keys, QUEUE_AHEAD_NANOS } from './protocol.ts';
import { WorkerNode } from './worker-node.ts';

const NS = 'pipe';
const MS = 1e6;
let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await redis?.stop();
});

interface Rig {
  backend: ClusterBackend;
  ends: QuantumEnd[];
  /** Resolves once `n` ends have arrived in all. */
  ended(n: number): Promise<void>;
}

async function rig(workers: number, namespace: string): Promise<Rig> {
  const backend = new ClusterBackend({ redis: redis.url, namespace, workers });
  await backend.connect();
  await backend.waitForWorkers(workers, 30_000);
  const ends: QuantumEnd[] = [];
  backend.setListener({ quantumEnd: (e) => ends.push(e) });
  const ended = async (n: number) => {
    await expect
      .poll(() => ends.length, { timeout: 30_000, interval: 5 })
      .toBeGreaterThanOrEqual(n);
  };
  return { backend, ends, ended };
}

/** A worker node of one thread named `name` in namespace `namespace`. */
function oneThreadNode(name: string, namespace: string): Promise<WorkerNode> {
  return WorkerNode.start({ redis: redis.url, threads: 1, name, namespace });
}

function spinQuantum(splitId: number, workerId: number, ms: number): Dispatch {
  return {
    splitId,
    workerId,
    quantumNanos: ms * MS,
    work: { kernel: 'spin', totalNanos: 10 * ms * MS },
    doneNanos: 0,
  };
}

describe('queued dispatches on the cluster backend', () => {
  it('hold quanta behind a running one up to QUEUE_AHEAD_NANOS; the worker runs them in order', async () => {
    const node = await oneThreadNode('p1', NS);
    const { backend, ends, ended } = await rig(1, NS);
    try {
      expect(backend.queueableWorkers()).toEqual([]); // idle: nothing to queue behind
      backend.start(spinQuantum(1, 0, 40));
      // 1 ms quanta: as many as fit in QUEUE_AHEAD_NANOS.
      const fit = QUEUE_AHEAD_NANOS / MS;
      for (let i = 0; i < fit; i++) {
        expect(backend.queueableWorkers()).toEqual([0]);
        backend.enqueue(spinQuantum(2 + i, 0, 1));
      }
      expect(backend.queueableWorkers()).toEqual([]); // full
      expect(() => backend.enqueue(spinQuantum(99, 0, 1))).toThrow(/room for a queued dispatch/);
      expect(backend.idleWorkers()).toEqual([]);
      expect(backend.revoke(2)).toBe(false); // on the node already: it runs
      await ended(1 + fit);
      expect(ends.map((e) => e.splitId)).toEqual(Array.from({ length: 1 + fit }, (_, i) => 1 + i));
      expect(ends.every((e) => e.outcome === 'yielded' && e.workNanos > 0)).toBe(true);
      expect(backend.inFlight).toBe(0);
      expect(backend.idleWorkers()).toEqual([0]);
      // A long quantum fills the worker's lookahead alone.
      backend.start(spinQuantum(20, 0, 40));
      backend.enqueue(spinQuantum(21, 0, 40));
      expect(backend.queueableWorkers()).toEqual([]);
      await ended(3 + fit);
    } finally {
      await backend.close();
      await node.close();
    }
  });

  it('widens the late-binding lead when a queued dispatch reaches its node after the worker ran out of work, and narrows it when one is on time', async () => {
    const node = await oneThreadNode('p4', NS);
    const { backend, ended } = await rig(1, NS);
    try {
      expect(backend.bindLeadNanos).toBe(BIND_LEAD_NANOS);
      backend.start(spinQuantum(1, 0, 300));
      // Until the node (in this process) has handed it to its worker thread, which then runs it
      // whatever this thread does.
      const runner = (node as unknown as { runners: { running: unknown }[] }).runners[0]!;
      await expect.poll(() => runner.running !== null, { timeout: 10_000, interval: 1 }).toBe(true);
      // This thread (the node's too: it runs here) holds still for 400 ms: the worker thread
      // ends its quantum meanwhile, and this coordinator, not having read that end, still sees
      // it busy and queues one behind it, which reaches the node some 100 ms too late.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
      backend.enqueue(spinQuantum(2, 0, 5));
      await ended(2);
      expect(backend.bindLeadNanos).toBeGreaterThan(BIND_LEAD_NANOS);
      const widened = backend.bindLeadNanos;
      // Queued at once behind a 500 ms quantum: there long before it is needed.
      backend.start(spinQuantum(3, 0, 500));
      backend.enqueue(spinQuantum(4, 0, 5));
      await ended(4);
      expect(backend.bindLeadNanos).toBeLessThan(widened);
      expect(backend.bindLeadNanos).toBeGreaterThanOrEqual(BIND_LEAD_MIN_NANOS);
    } finally {
      await backend.close();
      await node.close();
    }
  });

  it('cancels a queued quantum before it starts: it ends cancelled with no work', async () => {
    const node = await oneThreadNode('p2', NS);
    const { backend, ends, ended } = await rig(1, NS);
    try {
      backend.start(spinQuantum(1, 0, 200));
      backend.enqueue(spinQuantum(2, 0, 5));
      backend.cancel(2);
      await ended(2);
      // The queued one is taken back from the worker at once (as on threads), so its end may come
      // first.
      const bySplit = new Map(ends.map((e) => [e.splitId, e]));
      expect(ends).toHaveLength(2);
      expect(bySplit.get(1)?.outcome).toBe('yielded');
      expect(bySplit.get(2)).toMatchObject({ outcome: 'cancelled', workNanos: 0, ranNanos: 0 });
    } finally {
      await backend.close();
      await node.close();
    }
  });

  it('a lost node: its running quantum fails WORKER_LOST, charged; those queued behind it are offered again', async () => {
    // Beats far apart, so the node never rewrites its entry before the coordinator notices it
    // vanished (the test removes it, as an operator or a crashed host would).
    const slow = { everyMs: 60_000, ttlMs: 120_000, pollMs: 100 };
    const ns = 'lost';
    const node = await WorkerNode.start({
      redis: redis.url,
      threads: 1,
      name: 'doomed',
      namespace: ns,
      heartbeat: slow,
    });
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: ns,
      workers: 1,
      heartbeat: slow,
    });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ends: QuantumEnd[] = [];
    backend.setListener({ quantumEnd: (e) => ends.push(e) });
    const admin = new Redis(redis.url);
    try {
      // Two seconds: the coordinator (polling every 100 ms) notices the loss long before the
      // quantum could end, however late this process runs.
      backend.start(spinQuantum(1, 0, 2000));
      backend.enqueue(spinQuantum(2, 0, 5));
      await admin
        .multi()
        .hdel(keys.nodes(ns), node.instance)
        .del(keys.heartbeat(ns, node.instance))
        .exec();
      await expect.poll(() => ends.length, { timeout: 30_000, interval: 5 }).toBe(2);
      const [lost, queued] = ends;
      expect(lost).toMatchObject({ splitId: 1, outcome: 'failed', errorCode: 'WORKER_LOST' });
      expect(lost!.error).toMatch(/node doomed .* vanished from the registry/);
      // Charged the time it held the worker until the loss was seen, at most its quantum.
      expect(lost!.ranNanos).toBeGreaterThan(0);
      expect(lost!.ranNanos).toBeLessThanOrEqual(2000 * MS);
      expect(lost!.ranNanos).toBeLessThanOrEqual(lost!.endNanos - lost!.startNanos);
      expect(queued).toMatchObject({ splitId: 2, outcome: 'yielded', ranNanos: 0, workNanos: 0 });
      // The node ran on and reported both (a network split, not a crash): those late ends are
      // dropped, so each dispatch still ended once.
      await node.close();
      expect(ends).toHaveLength(2);
      expect(backend.inFlight).toBe(0);
    } finally {
      admin.disconnect();
      await backend.close();
      await node.close();
    }
  });
});

describe('the executor pipelined over the cluster (as schedlab run and serve build it)', () => {
  /** One node of one thread in namespace `ns`, and a fifo executor pipelined over it. */
  async function pipelined(ns: string, quantumMs: number, config: EngineConfigPatch = {}) {
    const node = await oneThreadNode(`${ns}1`, ns);
    const backend = new ClusterBackend({ redis: redis.url, namespace: ns, workers: 1 });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ex = new Executor(
      backend,
      { workers: 1, policy: 'fifo', quantumMs, ...config },
      { pipeline: true },
    );
    return { node, backend, ex };
  }

  it('queues a 100 ms quantum behind a running one; the queued split waits until it starts', async () => {
    const { node, backend, ex } = await pipelined('exec', 100);
    const waits = new Map<string, number>();
    ex.onDispatchWait((cls, nanos) => waits.set(ex.spans.className(cls), nanos));
    try {
      // What the executor shows the moment the first split is queued.
      let seen: { queued: number; onNode: number; running: number; afterNanos: number } | null =
        null;
      afterEachEnqueue(backend, () => {
        seen ??= {
          queued: ex.queuedBehind(),
          onNode: backend.queuedOn(0),
          running: ex.workers().filter((w) => w.state === 'running').length,
          afterNanos: backend.now() - since,
        };
      });
      // Read before the first is dispatched (it was read after: a loaded machine saw the queued
      // split 44 µs "early", the time between that dispatch and this reading).
      const since = backend.now();
      ex.submitJob(oneTaskJob('first', intermediates(1, spin(250))));
      const second = ex.submitJob(oneTaskJob('second', intermediates(1, spin(10))));
      // Chosen late: nothing is queued while the running quantum is far from its end.
      expect(ex.queuedBehind()).toBe(0);
      await ex.drain();
      // Long work is queued too, within BIND_LEAD_NANOS of that end: the node worker goes on
      // without a round trip through here. Queued is not started: one worker shows running.
      expect(seen).toMatchObject({ queued: 1, onNode: 1, running: 1 });
      expect(seen!.afterNanos).toBeGreaterThanOrEqual(100 * MS - BIND_LEAD_NANOS);
      expect(ex.counters).toMatchObject({ submitted: 2, succeeded: 2, live: 0, staleEnds: 0 });
      expect(ex.counters.quanta).toBeGreaterThanOrEqual(4);
      // Its wait ran until the first's 100 ms quantum ended, not until it was handed to the node.
      expect(waits.get('second')).toBeGreaterThanOrEqual(90 * MS);
      const s = ex.spans.read(0).columns;
      // Its run, in the job trail as in the Gantt, starts no earlier than the first one's end.
      const run = ex.jobDetail(second).splits[0]?.segments.find((g) => g.kind === 'running');
      expect(run?.startNanos).toBeGreaterThanOrEqual(s.end[0]! - 1);
    } finally {
      await ex.close();
      await backend.close();
      await node.close();
    }
  });

  it('queues, as the running quantum nears its end, the split the policy favours then: a newcomer goes before an older one', async () => {
    const config = { policy: 'priority', preemptive: true } as const;
    const { node, backend, ex } = await pipelined('late', 100, config);
    try {
      ex.submitJob(oneTaskJob('first', intermediates(1, spin(250)), { basePriority: 50 }));
      const older = ex.submitJob(
        oneTaskJob('older', intermediates(1, spin(10)), { basePriority: 90 }),
      );
      await new Promise((r) => setTimeout(r, 30));
      const urgent = ex.submitJob(
        oneTaskJob('urgent', intermediates(1, spin(10)), { basePriority: 10 }),
      );
      await ex.drain();
      expect(ex.counters).toMatchObject({ submitted: 3, succeeded: 3, live: 0, staleEnds: 0 });
      const start = (id: number) =>
        ex.jobDetail(id).splits[0]!.segments.find((g) => g.kind === 'running')!.startNanos;
      // Queued at once, `older` would have run right after the first quantum; chosen late, the
      // urgent newcomer runs there, and `older` after the first job's second quantum too.
      expect(start(urgent)).toBeLessThan(start(older));
    } finally {
      await ex.close();
      await backend.close();
      await node.close();
    }
  });

  it('keeps QUEUE_AHEAD_NANOS of short quanta queued behind a running one (a dispatch takes longer than a 1 ms quantum)', async () => {
    const { node, backend, ex } = await pipelined('short', 1);
    try {
      for (let i = 0; i < 8; i++) ex.submitJob(oneTaskJob('c', intermediates(1, spin(20))));
      const fit = QUEUE_AHEAD_NANOS / MS;
      expect(ex.queuedBehind()).toBe(fit);
      expect(backend.queuedOn(0)).toBe(fit);
      expect(backend.queueRoom(0)).toBe(0);
      await ex.drain();
      expect(ex.counters).toMatchObject({ submitted: 8, succeeded: 8, live: 0, staleEnds: 0 });
      expect(backend.inFlight).toBe(0);
    } finally {
      await ex.close();
      await backend.close();
      await node.close();
    }
  });
});
