/**
 * The cluster backend with each worker node on its own "host": three `schedlab worker` processes,
 * each in a network namespace of its own (test/netns.ts) that reaches Redis only over its veth
 * link, with a password (off loopback a `--redis` URL needs one). Skipped, with the reason
 * printed, where namespaces cannot be made (not root, no `ip`/`unshare`/`nsenter`, REDIS_URL set).
 * Waits are generous bounds for a busy machine, never expected times.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterBackend } from '../engine/runtime/cluster/cluster-backend.ts';
import { Executor, type JobEnd } from '../engine/runtime/executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../engine/runtime/executor/testing.ts';
import { makeNetNs, netnsProbe, type NetNs } from './netns.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SLOW = 150_000;
const PASSWORD = 'netns-test-secret';
const why =
  process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== ''
    ? 'REDIS_URL is set: the test must start a Redis that listens on its namespaces links'
    : await netnsProbe();
if (why !== null) console.log(`cluster-netns.test.ts skipped: ${why}`);

let redis: TestRedis | undefined;
const spaces: NetNs[] = [];
const nodes: ChildProcess[] = [];

function startNode(ns: NetNs, name: string, port: number): Promise<void> {
  const url = `redis://:${PASSWORD}@${ns.hostAddress}:${port}`;
  const child = ns.node(
    ['bin/schedlab.js', 'worker', '--redis', url, '--threads', '1', '--name', name],
    {
      cwd: ROOT,
    },
  );
  nodes.push(child);
  return new Promise((resolve, reject) => {
    let log = '';
    child.stdout!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for quanta')) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker ${name} exited ${code}:\n${log}`)));
  });
}

describe.skipIf(why !== null)('worker nodes in network namespaces of their own', () => {
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) spaces.push(await makeNetNs());
    redis = await startTestRedis({
      bind: spaces.map((s) => s.hostAddress),
      password: PASSWORD,
    });
    const port = redis.port;
    await Promise.all(spaces.map((ns, i) => startNode(ns, `host${i + 1}`, port)));
  }, SLOW);

  afterAll(async () => {
    await Promise.all(
      nodes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await redis?.stop();
    await Promise.all(spaces.map((s) => s.close()));
  }, SLOW);

  it(
    'cannot reach Redis on their own loopback, only over their link; every job ends once, on every node',
    async () => {
      // What "another host" means here: the namespace's own 127.0.0.1 has no Redis.
      const probe = `require('net').connect(${redis!.port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(3))`;
      expect(spaces[0]!.nodeSync(['-e', probe])).toBe(3);

      const alarms: string[] = [];
      const backend = new ClusterBackend({
        redis: redis!.url,
        workers: 3,
        onAlarm: (a) => alarms.push(`${a.kind}: ${a.message}`),
      });
      await backend.connect();
      await backend.waitForWorkers(3, 60_000);
      const ex = new Executor(backend, { workers: 3, policy: 'fair', quantumMs: 10 });
      const ends: JobEnd[] = [];
      ex.onJobEnd((e) => ends.push(e));
      try {
        const ids = Array.from({ length: 9 }, (_, i) =>
          ex.submitJob(oneTaskJob(i % 3 ? 'short' : 'long', leaves(2, spin(i % 3 ? 8 : 60)))),
        );
        await ex.drain();
        expect(ends.map((e) => e.jobId).sort((a, b) => a - b)).toEqual(ids);
        expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
        const c = ex.counters;
        expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
        expect(c.staleEnds).toBe(0);
        expect(alarms.filter((a) => !a.startsWith('node-joined'))).toEqual([]);
        // 18 splits met 3 idle workers at once, so each node ran a quantum (ids are stable: no
        // node was lost, as the alarms show).
        const s = ex.spans.read(0).columns;
        const ran = new Set<string | undefined>();
        for (let i = 0; i < s.count; i++) ran.add(backend.workerNode(s.worker[i]!));
        expect([...ran].sort()).toEqual(['host1', 'host2', 'host3']);
      } finally {
        await ex.close();
      }
    },
    SLOW,
  );
});
