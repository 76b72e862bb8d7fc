// Two coordinators sharing one node's thread (one namespace): one's control messages touch only
// its own quanta (protocol.ts: "a message names its coordinator too").
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { Executor } from '../executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../executor/testing.ts';
import { ClusterBackend } from './cluster-backend.ts';
import { keys } from './protocol.ts';
import { WorkerNode } from './worker-node.ts';

let redis: TestRedis;
let node: WorkerNode;
let client: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  node = await WorkerNode.start({ redis: redis.url, threads: 1, name: 'shared', namespace: 'two' });
  client = new Redis(redis.url);
});
afterAll(async () => {
  client?.disconnect();
  await node?.close();
  await redis?.stop();
});

/**
 * Waits until the node has taken b's quantum (BullMQ's active list, prefix the namespace): only
 * then is a's quantum sure to queue behind it. A coordinator shows its worker running as it
 * sends, and on a busy machine a's quantum, sent a moment later, could reach Redis first.
 */
async function nodeTookOne(): Promise<void> {
  const active = `two:${keys.queue(node.instance)}:active`;
  await expect.poll(() => client.llen(active), { interval: 5, timeout: 10_000 }).toBe(1);
}

async function coordinator(quantumMs: number): Promise<Executor> {
  const backend = new ClusterBackend({ redis: redis.url, namespace: 'two', workers: 1 });
  await backend.connect();
  await backend.waitForWorkers(1, 30_000);
  return new Executor(backend, { workers: 1, policy: 'fifo', quantumMs });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two coordinators on one node thread', { timeout: 60_000 }, () => {
  it('one shortening its quantum cuts its own quanta, not the other’s running one', async () => {
    const b = await coordinator(400);
    const a = await coordinator(400);
    try {
      b.submitJob(oneTaskJob('b', leaves(1, spin(800))));
      await nodeTookOne();
      a.submitJob(oneTaskJob('a', leaves(1, spin(50))));
      await sleep(60); // a's quantum reaches the node and waits behind b's
      // Before: the node cut whatever its thread ran — b's quantum, 400 ms asked, ended early.
      a.configure({ quantumMs: 1 });
      await Promise.all([a.drain(), b.drain()]);
      const columns = b.spans.read(0).columns;
      const first = (columns.end[0]! - columns.start[0]!) / 1e6;
      expect(first).toBeGreaterThan(300);
      expect(a.counters.quanta).toBeGreaterThan(1); // a's own quanta were cut to 1 ms
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('one cancelling its running quantum stops only its own, not the other’s queued behind it', async () => {
    const b = await coordinator(400);
    const a = await coordinator(400);
    try {
      const bJob = b.submitJob(oneTaskJob('b', leaves(1, spin(800))));
      await nodeTookOne();
      const aJob = a.submitJob(oneTaskJob('a', leaves(1, spin(50))));
      await sleep(60); // a's quantum reaches the node and waits on the thread behind b's
      // Both coordinators number their splits alike: b's split and a's share an id.
      b.cancelJob(bJob);
      await Promise.all([a.drain(), b.drain()]);
      expect(b.jobState(bJob)).toBe('cancelled');
      // Before: the thread's cancel word named the split id, so a's quantum, started by the
      // thread the moment b's stopped, read it as its own and stopped too.
      expect(a.jobState(aJob)).toBe('succeeded');
      expect(a.counters.cancelled).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
