// The live app on the cluster backend (`schedlab serve --backend cluster`) keeps each busy node
// worker fed: one quantum queued behind its running one (the executor's pipeline). Frames count
// such a quantum as queued, not running (it has not started), and the job invariant holds at
// every frame. A Redis this file starts (test/redis-server.ts) and one in-process node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/protocol.ts';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { WorkerNode } from '../../runtime/cluster/worker-node.ts';
import {
  afterEachEnqueue,
  intermediates,
  oneTaskJob,
  spin,
} from '../../runtime/executor/testing.ts';
import { startLiveSession } from './live-session.ts';

let redis: TestRedis;
let node: WorkerNode | null = null;

beforeAll(async () => {
  redis = await startTestRedis();
  node = await WorkerNode.start({ redis: redis.url, threads: 2, name: 'live' });
}, 60_000);

afterAll(async () => {
  await node?.close();
  await redis?.stop();
});

async function runOnCluster(pipeline?: boolean) {
  const live = await startLiveSession({
    backend: 'cluster',
    redis: redis.url,
    preset: null,
    config: { quantumMs: 50, policy: 'fifo' },
    frameHz: 20,
    ...(pipeline === undefined ? {} : { pipeline }),
  });
  const session = live.session;
  const problems: string[] = [];
  let mostQueued = 0;
  let framesWithQueued = 0;
  const off = session.onFrame((f: Frame) => {
    const c = f.counters;
    const sum = c.succeeded + c.failed + c.cancelled + c.rejected + c.live;
    if (c.submitted !== sum) problems.push(`frame ${f.seq}: submitted ${c.submitted} != ${sum}`);
    const running = f.workers.filter((w) => w.state === 'running').length;
    if (c.splitsRunning > running) {
      problems.push(`frame ${f.seq}: ${c.splitsRunning} splits running on ${running} workers`);
    }
    const behind = session.executor.queuedBehind();
    mostQueued = Math.max(mostQueued, behind);
    if (behind > 0) framesWithQueued++;
  });
  // Frames at 20 Hz can keep missing the few ms a quantum is queued (their period matches the
  // quantum's): each queued dispatch also takes a frame.
  let extraFrames = 0;
  const undo = afterEachEnqueue(session.backend, () => {
    if (extraFrames++ < 200) session.frame();
  });
  try {
    for (let i = 0; i < 6; i++)
      session.executor.submitJob(oneTaskJob('c', intermediates(1, spin(200))));
    await session.executor.drain();
    return { problems, mostQueued, framesWithQueued, counters: session.executor.counters };
  } finally {
    undo();
    off();
    await live.close();
  }
}

describe('the live app on the cluster backend', () => {
  it('keeps one quantum queued behind each busy node worker; frames show it queued, not running', async () => {
    const r = await runOnCluster();
    expect(r.counters).toMatchObject({ submitted: 6, succeeded: 6, live: 0, staleEnds: 0 });
    expect(r.mostQueued).toBeGreaterThan(0);
    expect(r.mostQueued).toBeLessThanOrEqual(2); // one per node worker
    expect(r.framesWithQueued).toBeGreaterThan(0);
    expect(r.problems).toEqual([]);
  }, 120_000);

  it('serve --pipeline off: no quantum is queued ahead', async () => {
    const r = await runOnCluster(false);
    expect(r.counters).toMatchObject({ submitted: 6, succeeded: 6, live: 0 });
    expect(r.mostQueued).toBe(0);
    expect(r.problems).toEqual([]);
  }, 120_000);
});
