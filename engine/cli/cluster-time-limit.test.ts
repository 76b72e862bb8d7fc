// A run's --time-limit that passes while Redis is away says so: Redis was away, for how long.
// Before, it advised a durationMs or a longer limit, as if the workload were at fault.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test/redis-server.ts';
import { WorkerNode } from '../runtime/cluster/worker-node.ts';
import { runCli, tmpFile } from './cli-testing.ts';
import { redisAwayAdvice, TIME_LIMIT_ADVICE } from './time-limit.ts';

let redis: TestRedis;
let node: WorkerNode;
beforeAll(async () => {
  redis = await startTestRedis();
  node = await WorkerNode.start({ redis: redis.url, threads: 1, name: 'n1' });
});
afterAll(async () => {
  await node?.close();
  await redis?.stop();
});

describe('run --backend cluster --time-limit while Redis is away', { timeout: 60_000 }, () => {
  it('names the outage and its length, not the workload, as why the run did not end', async () => {
    const long = tmpFile('long.json', {
      name: 'long',
      config: { workers: 1 },
      classes: [
        { name: 'a', arrival: { kind: 'once' }, splits: { leaf: 1 }, work: { totalMs: 600_000 } },
      ],
    });
    const run = runCli([
      'run',
      long,
      '--backend',
      'cluster',
      '--redis',
      redis.url,
      '--time-limit',
      '12s',
    ]);
    // The run under way (its first quantum handed to the node), then Redis goes.
    await firstDispatch(redis.url);
    await redis.kill();
    const r = await run;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `passed its time limit of 12s \\(wall clock\\) and was stopped; Redis at ${redis.url.replace(/\./g, '\\.')} has been away for [\\d.]+ s of it \\(since [\\d.]+ m?s in\\): nothing could run meanwhile — bring Redis back, then run again`,
      ),
    );
    expect(r.err).not.toMatch(/give the workload a durationMs/);
  });
});

/** Resolves once a quantum was queued for a node (BullMQ counts its jobs in a `…:id` key). */
async function firstDispatch(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const deadline = Date.now() + 40_000;
    while ((await client.keys('*:id')).length === 0) {
      if (Date.now() > deadline) throw new Error('the run queued no quantum in 40 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    client.disconnect();
  }
}

describe('redisAwayAdvice', () => {
  const advice = TIME_LIMIT_ADVICE.limit;
  it('keeps the usual advice when Redis was never away', () => {
    expect(redisAwayAdvice('redis://h', { ms: 0, since: null }, null, 0, advice)).toBe(advice);
  });
  it('names an outage that ended, before the usual advice', () => {
    expect(redisAwayAdvice('redis://h', { ms: 12_000, since: null }, null, 0, advice)).toBe(
      'Redis at redis://h was away for 12 s of it, when nothing could run; raise --time-limit',
    );
  });
  it('names writes Redis refuses now (out of memory), and what to do', () => {
    const refused =
      'Redis at redis://h refused a write: OOM command not allowed (every write since is refused; 9 so far)';
    expect(redisAwayAdvice('redis://h', { ms: 0, since: null }, refused, 0, advice)).toBe(
      `${refused}: nothing could be dispatched or ended meanwhile — make Redis take writes again (out of memory: free some or raise its maxmemory), then run again`,
    );
  });
});
