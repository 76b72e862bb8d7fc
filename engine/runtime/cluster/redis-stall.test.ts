// A Redis that stops answering without closing its connections (a stopped process, a host
// swapping): the coordinator says so, as it does when the connection drops, and says when it is
// back. Before, a stalled Redis raised no alarm at all: the registry look waited for ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { Executor } from '../executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../executor/testing.ts';
import { ClusterBackend, type ClusterAlarm } from './cluster-backend.ts';
import { WorkerNode } from './worker-node.ts';

let redis: TestRedis;
let node: WorkerNode;
beforeAll(async () => {
  redis = await startTestRedis();
  node = await WorkerNode.start({ redis: redis.url, threads: 1, name: 'n', namespace: 'stall' });
});
afterAll(async () => {
  redis?.resume();
  await node?.close();
  await redis?.stop();
});

describe('a stalled Redis', { timeout: 60_000 }, () => {
  it('raises redis-down after the heartbeat lifetime, then redis-up, and the run ends', async () => {
    const alarms: ClusterAlarm[] = [];
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: 'stall',
      workers: 1,
      onAlarm: (a) => alarms.push(a),
    });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 20 });
    try {
      const job = ex.submitJob(oneTaskJob('a', leaves(2, spin(100))));
      await expect.poll(() => ex.counters.quanta, { timeout: 20_000 }).toBeGreaterThan(0);
      redis.pause();
      await expect
        .poll(() => alarms.find((a) => a.kind === 'redis-down')?.message, { timeout: 10_000 })
        .toMatch(/has not answered for \d+ ms: dispatch stopped/);
      expect(backend.idleWorkers()).toEqual([]);
      // The quantum in flight counts at most its grant (20 ms), not the whole outage: before, the
      // worker read busy all along (seconds), a cut report's utilization near 100 %.
      const c = ex.counters;
      expect(c.busyNanos).toBeLessThan((c.quanta + 2) * 50e6);
      redis.resume();
      await expect
        .poll(() => alarms.some((a) => a.kind === 'redis-up'), { timeout: 20_000 })
        .toBe(true);
      await ex.drain();
      expect(ex.jobState(job)).toBe('succeeded');
      expect(alarms.filter((a) => a.kind === 'node-lost')).toEqual([]);
    } finally {
      redis.resume();
      await ex.close();
    }
  });
});
