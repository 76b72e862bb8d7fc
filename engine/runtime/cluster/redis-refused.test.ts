// Redis out of memory (`maxmemory` with `noeviction`): every write is refused. The coordinator
// says so once, naming Redis's reply, then counts (not a line per 100 ms retry), and a node whose
// heartbeats Redis refused is not declared lost; when writes are taken again it says that too.
// Before, refused adds were retried in silence and the node was said to have stopped heartbeating.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { Executor } from '../executor/executor.ts';
import { leaves, oneTaskJob, spanProblems, spin } from '../executor/testing.ts';
import type { JobEnd } from '../executor/executor.ts';
import { ClusterBackend, type ClusterAlarm } from './cluster-backend.ts';
import { WorkerNode } from './worker-node.ts';

let redis: TestRedis;
let admin: Redis;
let node: WorkerNode;
const nodeLog: string[] = [];
beforeAll(async () => {
  redis = await startTestRedis();
  admin = new Redis(redis.url);
  node = await WorkerNode.start({
    redis: redis.url,
    threads: 1,
    name: 'n1',
    namespace: 'oom',
    log: (line) => nodeLog.push(line),
  });
});
afterAll(async () => {
  await admin?.config('SET', 'maxmemory', '0').catch(() => {});
  admin?.disconnect();
  await node?.close();
  await redis?.stop();
});

describe('a Redis that refuses writes', { timeout: 60_000 }, () => {
  it('is said once with a count, and its node is not declared lost', async () => {
    const alarms: ClusterAlarm[] = [];
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: 'oom',
      workers: 1,
      onAlarm: (a) => alarms.push(a),
    });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 20 });
    try {
      ex.submitJob(oneTaskJob('a', leaves(4, spin(2_000))));
      await expect.poll(() => ex.counters.quanta, { timeout: 20_000 }).toBeGreaterThan(0);
      await admin.config('SET', 'maxmemory', '1');
      await expect
        .poll(() => alarms.find((a) => a.kind === 'redis-refused')?.message, { timeout: 10_000 })
        .toMatch(
          /refused a write: OOM command not allowed .*\(every write since is refused; \d+ so far\)/,
        );
      // Past the heartbeat's lifetime and a poll: its beats were refused, it did not stop.
      await new Promise((r) => setTimeout(r, 5_000));
      expect(backend.writesRefused()).toMatch(/OOM .* so far\)/);
      expect(Number(/(\d+) so far/.exec(backend.writesRefused() ?? '')?.[1])).toBeGreaterThan(3);
      expect(alarms.filter((a) => a.kind === 'redis-refused').length).toBeLessThanOrEqual(2);
      expect(alarms.filter((a) => a.kind.startsWith('node-') && a.kind !== 'node-joined')).toEqual(
        [],
      );
      expect(nodeLog.filter((l) => /refused a write: OOM/.test(l)).length).toBeGreaterThan(0);
      expect(nodeLog.filter((l) => /refused a write/.test(l)).length).toBeLessThanOrEqual(2);
      await admin.config('SET', 'maxmemory', '0');
      await expect
        .poll(() => alarms.some((a) => a.kind === 'redis-accepts'), { timeout: 10_000 })
        .toBe(true);
      expect(backend.writesRefused()).toBeNull();
      await new Promise((r) => setTimeout(r, 4_000));
      expect(alarms.filter((a) => a.kind === 'node-lost')).toEqual([]);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      await ex.close();
    }
  });

  it('ends every quantum whose end Redis refused, once memory is freed: the run finishes, none twice', async () => {
    const backend = new ClusterBackend({ redis: redis.url, namespace: 'oom', workers: 1 });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 20 });
    const ends: JobEnd[] = [];
    ex.onJobEnd((e) => ends.push(e));
    try {
      ex.submitJob(oneTaskJob('a', leaves(3, spin(300))));
      await expect.poll(() => ex.counters.quanta, { timeout: 20_000 }).toBeGreaterThan(0);
      // The node's quantum ends are refused while its quanta go on running.
      await admin.config('SET', 'maxmemory', '1');
      await new Promise((r) => setTimeout(r, 2_000));
      await admin.config('SET', 'maxmemory', '0');
      // Before: the refused end was dropped; its flight never ended and the job never did.
      await expect.poll(() => ends.length, { timeout: 30_000 }).toBe(1);
      expect(ends[0]!.state).toBe('succeeded');
      const spans = spanProblems(ex.spans.read(0).columns);
      expect(spans.problems).toEqual([]);
      expect(spans.finished).toBe(3);
      expect(backend.inFlight).toBe(0);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      await ex.close();
    }
  });
});
