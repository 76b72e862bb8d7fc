// A Redis outage in the live app on the cluster: frames carry a `cluster-redis` alarm saying so
// while it lasts, and no stuck-worker alarm blaming a split whose end cannot come. Before, the
// frames showed both workers running and a stuck worker, and only the server's log named Redis;
// then, its split was warned of as running past its quantum and utilization read 1.00.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm, Frame } from '../../../shared/protocol.ts';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { WorkerNode } from '../../runtime/cluster/worker-node.ts';
import { oneTaskJob, leaves, spin } from '../../runtime/executor/testing.ts';
import { startLiveSession } from './live-session.ts';

let redis: TestRedis;
let node: WorkerNode | null = null;

beforeAll(async () => {
  redis = await startTestRedis();
  node = await WorkerNode.start({ redis: redis.url, threads: 1, name: 'alarms' });
}, 60_000);

afterAll(async () => {
  await redis?.restart();
  await node?.close();
  await redis?.stop();
}, 60_000);

describe('the live app on the cluster while Redis is away', () => {
  it('frames carry a cluster-redis alarm while it lasts, and no stuck-worker alarm', async () => {
    const live = await startLiveSession({
      backend: 'cluster',
      redis: redis.url,
      preset: null,
      config: { quantumMs: 50, policy: 'fifo', runawayAfterMs: 100 },
      frameHz: 20,
    });
    const alarms: Alarm[][] = [];
    const utilization: number[] = [];
    const off = live.onFrame((f: Frame) => {
      alarms.push(f.alarms ?? []);
      utilization.push(f.utilization);
    });
    try {
      const ex = live.session.executor;
      ex.submitJob(oneTaskJob('a', leaves(1, spin(60_000))));
      await expect.poll(() => ex.counters.quanta, { timeout: 20_000 }).toBeGreaterThan(0);
      await redis.kill();
      const down = () => alarms.at(-1)?.find((a) => a.kind === 'cluster-redis')?.message;
      await expect.poll(down, { timeout: 10_000 }).toMatch(/Redis at .* is unreachable/);
      // Past the runaway bound many times over: the quantum in flight is not a stuck worker.
      const from = alarms.length;
      await new Promise((r) => setTimeout(r, 1500));
      const since = alarms.slice(from).flat();
      expect(since.filter((a) => a.kind === 'stuck-worker')).toEqual([]);
      // Nor is its split said to run past its quantum (before: "ran 1.4 s past its quantum"),
      // and its worker is not read busy past what the quantum was granted (before: 1.00).
      expect(ex.jobWarnings().filter((w) => w.rule === 'overrun')).toEqual([]);
      expect(Math.max(...utilization.slice(from + 4))).toBeLessThan(0.5);
      expect(since.some((a) => a.kind === 'cluster-redis')).toBe(true);
      expect(live.snapshot().frame.alarms?.map((a) => a.kind)).toContain('cluster-redis');
      await redis.restart();
      await expect.poll(down, { timeout: 20_000 }).toBeUndefined();
    } finally {
      off();
      await live.close();
    }
  }, 90_000);
});
