// Module splits go only to nodes started with `--modules`. Before, a node started without it was
// handed module splits like any other and failed each one (`outside this node's --modules
// directories (none were given)`), though a node beside it could run them.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { Executor, type JobEnd } from '../executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../executor/testing.ts';
import { ClusterBackend } from './cluster-backend.ts';
import { WorkerNode } from './worker-node.ts';

const FIXTURES = fileURLToPath(new URL('../threads/fixtures', import.meta.url));
let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

async function run(namespace: string, workers: number, submit: (ex: Executor) => void) {
  const backend = new ClusterBackend({ redis: redis.url, namespace, workers });
  await backend.connect();
  await backend.waitForWorkers(workers, 30_000);
  const ex = new Executor(backend, { workers, policy: 'fifo', quantumMs: 5 }, { pipeline: true });
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  try {
    submit(ex);
    await ex.drain();
  } finally {
    await ex.close();
  }
  return ends;
}

const countUp = {
  kernel: { module: join(FIXTURES, 'count-up.mjs'), exportName: 'countUp' },
  input: { i: 0, target: 400, quanta: 0 },
  totalNanos: 1,
};

describe('user-module splits on a cluster', { timeout: 60_000 }, () => {
  it('run only on nodes started with --modules; the others run the built-in kernels', async () => {
    const nodes = await Promise.all([
      WorkerNode.start({ redis: redis.url, threads: 2, name: 'plain', namespace: 'mixed' }),
      WorkerNode.start({
        redis: redis.url,
        threads: 1,
        name: 'modular',
        namespace: 'mixed',
        moduleDirs: [FIXTURES],
      }),
    ]);
    try {
      const ends = await run('mixed', 3, (ex) => {
        for (let i = 0; i < 12; i++) {
          ex.submitJob(oneTaskJob('module', leaves(1, countUp)));
          ex.submitJob(oneTaskJob('spin', leaves(1, spin(2))));
        }
      });
      expect(ends).toHaveLength(24);
      expect(ends.filter((e) => e.state !== 'succeeded').map((e) => e.splitError)).toEqual([]);
    } finally {
      await Promise.all(nodes.map((n) => n.close()));
    }
  });

  it('fail MODULE_NOT_ALLOWED naming --modules when no node allows them', async () => {
    const node = await WorkerNode.start({
      redis: redis.url,
      threads: 1,
      name: 'plain',
      namespace: 'none',
    });
    try {
      const ends = await run('none', 1, (ex) => {
        ex.submitJob(oneTaskJob('module', leaves(1, countUp)));
        ex.submitJob(oneTaskJob('spin', leaves(1, spin(2))));
      });
      expect(ends.find((e) => e.class === 'spin')?.state).toBe('succeeded');
      expect(ends.find((e) => e.class === 'module')).toMatchObject({
        state: 'failed',
        errorCode: 'MODULE_NOT_ALLOWED',
        splitError: expect.stringMatching(/no node of the cluster runs user modules.*--modules/),
      });
    } finally {
      await node.close();
    }
  });
});
