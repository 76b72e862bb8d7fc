/**
 * The cluster backend over real `schedlab worker` processes (spawned through bin/schedlab.js, so
 * tsx): three nodes, one worker each, on a Redis this file starts (test/redis-server.ts). Node loss
 * is detected within HEARTBEAT.ttlMs + pollMs (3.5 s); the waits below are generous bounds on a
 * busy machine, never the expected time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PolicyName } from '../shared/config.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';
import { Executor, type JobEnd } from '../engine/runtime/executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../engine/runtime/executor/testing.ts';
import { ClusterBackend, type ClusterAlarm } from '../engine/runtime/cluster/cluster-backend.ts';
import { parseWorkload } from '../shared/workload.ts';
import { runWorkload } from '../engine/host/report/run-workload.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let redis: TestRedis;
const nodes = new Map<string, ChildProcess>();

/** Starts `schedlab worker` named `name`; resolves once it says it is waiting for quanta. */
function startNode(name: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['bin/schedlab.js', 'worker', '--redis', redis.url, '--threads', '1', '--name', name],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  );
  nodes.set(name, child);
  return new Promise((resolve, reject) => {
    let log = '';
    child.stdout!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for quanta')) resolve(child);
    });
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker ${name} exited ${code}:\n${log}`)));
  });
}

// Bounds for a loaded 2-core machine, where starting three tsx processes alone can take 40 s.
const SLOW = 150_000;

beforeAll(async () => {
  redis = await startTestRedis();
  await Promise.all(['n1', 'n2', 'n3'].map(startNode));
}, SLOW);

afterAll(async () => {
  await Promise.all(
    [...nodes.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  await redis?.stop();
}, SLOW);

interface Rig {
  backend: ClusterBackend;
  ex: Executor;
  ends: JobEnd[];
  alarms: ClusterAlarm[];
  /** Invariant violations seen at any sample (every job end, and every 10 ms). */
  broken: string[];
  stop: () => Promise<void>;
}

async function rig(policy: PolicyName): Promise<Rig> {
  const alarms: ClusterAlarm[] = [];
  const backend = new ClusterBackend({
    redis: redis.url,
    workers: 3,
    onAlarm: (a) => alarms.push(a),
  });
  await backend.connect();
  await backend.waitForWorkers(3, 30_000);
  // As `schedlab run` and `serve` build it on the cluster: each busy node worker keeps one quantum
  // queued behind its running one (the executor's pipeline).
  const ex = new Executor(backend, { workers: 3, policy, quantumMs: 10 }, { pipeline: true });
  const ends: JobEnd[] = [];
  const broken: string[] = [];
  const check = () => {
    const c = ex.counters;
    const sum = c.succeeded + c.failed + c.cancelled + c.rejected + c.live;
    if (c.submitted !== sum) broken.push(`submitted ${c.submitted} != ${sum}`);
  };
  ex.onJobEnd((e) => {
    ends.push(e);
    check();
  });
  const sampler = setInterval(check, 10);
  return {
    backend,
    ex,
    ends,
    alarms,
    broken,
    stop: async () => {
      clearInterval(sampler);
      await ex.close();
    },
  };
}

/** Short and long jobs at three priorities, a blocking split among them. */
function submitMixed(ex: Executor, count: number, retries = 0): number[] {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const long = i % 3 === 0;
    const work = i % 5 === 4 ? { kernel: 'sleep' as const, totalNanos: 15e6 } : spin(long ? 60 : 8);
    ids.push(
      ex.submitJob(
        oneTaskJob(long ? 'long' : 'short', leaves(long ? 2 : 1, work), {
          basePriority: [10, 50, 90][i % 3]!,
          retries,
        }),
      ),
    );
  }
  return ids;
}

function expectEachEndedOnce(ends: JobEnd[], ids: number[]): void {
  expect(ends.map((e) => e.jobId).sort((a, b) => a - b)).toEqual(ids);
}

describe('three schedlab worker processes', () => {
  for (const policy of ['mlfq', 'priority', 'fair'] as const) {
    it(
      `run a mixed workload under ${policy}: every job ends exactly once, on every node`,
      async () => {
        const r = await rig(policy);
        try {
          const ids = submitMixed(r.ex, 9);
          await r.ex.drain();
          expectEachEndedOnce(r.ends, ids);
          expect(r.ends.every((e) => e.state === 'succeeded')).toBe(true);
          expect(r.broken).toEqual([]);
          expect(r.ex.counters.staleEnds).toBe(0);
          const used = new Set<number>();
          const s = r.ex.spans.read(0).columns;
          for (let i = 0; i < s.count; i++) used.add(s.worker[i]!);
          expect(used.size).toBe(3);
        } finally {
          await r.stop();
        }
      },
      SLOW,
    );
  }

  it(
    'take a headless run (schedlab run --backend cluster): every worker used, every job ended',
    async () => {
      const workload = parseWorkload({
        name: 'tiny-cluster',
        classes: [
          {
            name: 'a',
            arrival: { kind: 'once', count: 4 },
            splits: { leaf: 2 },
            work: { totalMs: 30 },
          },
        ],
      });
      const lines: string[] = [];
      // Dispatches queued behind a node worker's running quantum (the pipeline, on by default).
      const queued = vi.spyOn(ClusterBackend.prototype, 'enqueue');
      try {
        const { report } = await runWorkload(workload, {
          backend: 'cluster',
          redis: redis.url,
          config: { quantumMs: 10 },
          log: (l) => lines.push(l),
        });
        expect(report).toMatchObject({ backend: 'cluster', workers: { count: 3 } });
        expect(report.classes.a).toMatchObject({ jobs: 4, succeeded: 4, unfinished: 0 });
        expect(lines.filter((l) => l.includes('joined'))).toHaveLength(3);
        // Eight splits of three quanta on three workers: quanta were queued behind running ones.
        expect(queued.mock.calls.length).toBeGreaterThan(0);
        // `--pipeline off`: every quantum a round trip through this process.
        queued.mockClear();
        const off = await runWorkload(workload, {
          backend: 'cluster',
          redis: redis.url,
          config: { quantumMs: 10 },
          pipeline: false,
        });
        expect(off.report.classes.a).toMatchObject({ jobs: 4, succeeded: 4, unfinished: 0 });
        expect(queued).not.toHaveBeenCalled();
      } finally {
        queued.mockRestore();
      }
    },
    SLOW,
  );

  it(
    'a node killed with SIGKILL mid-quantum loses nothing, and a node started again is used',
    async () => {
      const r = await rig('mlfq');
      try {
        const ids = submitMixed(r.ex, 12, 2);
        // Long splits keep every node busy; kill n3 while it runs one with another queued behind.
        const long = r.ex.submitJob(oneTaskJob('long', leaves(3, spin(400)), { retries: 2 }));
        ids.push(long);
        const n3Fed = () =>
          r.ex
            .workers()
            .some((w) => w.node === 'n3' && w.state === 'running' && r.backend.queuedOn(w.id) > 0);
        await expect.poll(n3Fed, { timeout: 20_000, interval: 5 }).toBe(true);
        nodes.get('n3')!.kill('SIGKILL');
        // It starts again at once (a new instance under the same name), while its loss is pending:
        // it waits as a spare until the lost one's worker id is free.
        const back = startNode('n3');
        await expect
          .poll(() => r.alarms.find((a) => a.kind === 'node-lost')?.message, { timeout: 15_000 })
          .toMatch(/node n3 stopped heartbeating/);
        await r.ex.drain();
        expectEachEndedOnce(r.ends, ids);
        expect(r.ends.every((e) => e.state === 'succeeded')).toBe(true);
        expect(r.ex.counters.retries).toBeGreaterThan(0); // the quantum lost with n3 ran again
        expect(r.ex.counters.staleEnds).toBe(0); // the late or lost ends of n3's quanta: none twice
        expect(r.broken).toEqual([]);

        // n3 comes back (a new instance under the same name) and gets work again.
        await back;
        await r.backend.waitForWorkers(3, 30_000);
        const more = r.ex.submitJob(oneTaskJob('long', leaves(4, spin(60))));
        await expect
          .poll(() => r.ex.workers().some((w) => w.node === 'n3' && w.state === 'running'), {
            timeout: 20_000,
            interval: 5,
          })
          .toBe(true);
        await r.ex.drain();
        expect(r.ends.at(-1)).toMatchObject({ jobId: more, state: 'succeeded' });
      } finally {
        await r.stop();
      }
    },
    SLOW,
  );

  it(
    'stops dispatching while Redis is away, resumes when it is back, and loses no job',
    async () => {
      const r = await rig('fair');
      try {
        const ids = submitMixed(r.ex, 12);
        await expect.poll(() => r.ex.counters.quanta, { timeout: 20_000 }).toBeGreaterThan(3);
        await redis.kill();
        await expect
          .poll(() => r.alarms.some((a) => a.kind === 'redis-down'), { timeout: 10_000 })
          .toBe(true);
        expect(r.backend.idleWorkers()).toEqual([]);
        await redis.restart();
        await expect
          .poll(() => r.alarms.some((a) => a.kind === 'redis-up'), { timeout: 20_000 })
          .toBe(true);
        await r.ex.drain();
        expectEachEndedOnce(r.ends, ids);
        expect(r.ends.every((e) => e.state === 'succeeded')).toBe(true);
        expect(r.broken).toEqual([]);
        expect(r.alarms.filter((a) => a.kind === 'node-lost')).toEqual([]);
      } finally {
        await r.stop();
      }
    },
    SLOW,
  );
});
