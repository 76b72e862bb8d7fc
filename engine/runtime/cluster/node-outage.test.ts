// A node and a Redis that is away: it says so when it starts, and a stop ends it all the same.
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { WorkerNode } from './worker-node.ts';

let redis: TestRedis | null = null;
afterEach(async () => {
  await redis?.stop();
  redis = null;
});

/** A fresh Redis and a node on it whose log lines are kept. */
async function loggingNode(): Promise<{ node: WorkerNode; log: string[]; server: TestRedis }> {
  const server = await startTestRedis();
  redis = server;
  const log: string[] = [];
  const node = await WorkerNode.start({
    redis: redis.url,
    threads: 1,
    namespace: 'outage',
    log: (line) => log.push(line),
  });
  return { node, log, server };
}

describe('a worker node while Redis is away', { timeout: 60_000 }, () => {
  it('refuses to start, CLUSTER_UNAVAILABLE naming the Redis, instead of waiting in silence', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const started = WorkerNode.start({ redis: url, threads: 1, namespace: 'outage' });
    await expect(started).rejects.toMatchObject({
      code: 'CLUSTER_UNAVAILABLE',
      message: expect.stringContaining(`Redis at ${url} refused the connection`),
    });
  });

  it('leaves when stopped, though Redis went away (a service manager sends one SIGTERM)', async () => {
    redis = await startTestRedis();
    const node = await WorkerNode.start({ redis: redis.url, threads: 1, namespace: 'outage' });
    await redis.kill();
    // Before: the heartbeat, the queue's close and the deregistration each waited for Redis.
    await expect(node.close()).resolves.toBeUndefined();
  });

  it('leaves within a few seconds when Redis stopped answering, saying what it gave up on', async () => {
    const { node, log, server } = await loggingNode();
    server.pause(); // its connections stay open: only an unanswered step shows it is away
    const started = Date.now();
    await node.close();
    // Before: 36 s in silence (the queue's close waited out its 30 s bound); now about 1.3 s.
    // The bound is loose (a busy machine is no failure): only the 30 s wait must be gone.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(log.join('\n')).toMatch(/does not answer: leaving without it/);
  });

  it('says an outage once, then every 10 s with a count, and says when Redis is back', async () => {
    const { node, log, server } = await loggingNode();
    try {
      const before = log.length;
      await server.kill();
      const failures = () =>
        log.slice(before).filter((l) => /ECONNREFUSED|Connection is closed/.test(l)).length;
      await expect.poll(failures, { timeout: 15_000 }).toBeGreaterThan(0);
      // BullMQ's worker retries about twice a second: 63 lines in 30 s before; one in 10 s now.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(failures()).toBeLessThanOrEqual(2);
      await server.restart();
      await expect
        .poll(() => log.slice(before).join('\n'), { timeout: 20_000 })
        .toMatch(new RegExp(`redis: Redis at ${server.url} is back after \\d+ s`));
    } finally {
      await node.close();
    }
  });
});
