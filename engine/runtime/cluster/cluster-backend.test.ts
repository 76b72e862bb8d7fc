import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestRedis, type TestRedis } from '../../../test/redis-server.ts';
import { Executor, type JobEnd } from '../executor/executor.ts';
import { leaves, oneTaskJob, spin } from '../executor/testing.ts';
import { ClusterBackend } from './cluster-backend.ts';
import { MAX_JSON_CHARS } from './json-value.ts';
import { moduleRefusal } from './module-dirs.ts';
import { HEARTBEAT, keys, type ControlMessage } from './protocol.ts';
import { connectionOptions, parseRedisUrl } from './redis-url.ts';
import { WorkerNode } from './worker-node.ts';

// In-process nodes (each its own worker threads, its own Redis connections): the
// process-level tests, kill -9 included, are in cluster-processes.test.ts.
const FIXTURES = fileURLToPath(new URL('../threads/fixtures', import.meta.url));
let redis: TestRedis;
let nodes: WorkerNode[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  nodes = await Promise.all(
    ['north', 'south'].map((name) =>
      WorkerNode.start({
        redis: redis.url,
        threads: 1,
        name,
        namespace: 'unit',
        moduleDirs: [FIXTURES],
      }),
    ),
  );
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  await redis?.stop();
});

async function coordinator(
  workers = 2,
  config: { policy: 'mlfq' | 'fifo'; quantumMs: number } = { policy: 'mlfq', quantumMs: 5 },
): Promise<{ backend: ClusterBackend; ex: Executor; ends: JobEnd[] }> {
  const backend = new ClusterBackend({ redis: redis.url, namespace: 'unit', workers });
  await backend.connect();
  await backend.waitForWorkers(workers, 30_000);
  const ex = new Executor(backend, { workers, ...config });
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  return { backend, ex, ends };
}

describe('the cluster backend', () => {
  it('runs every quantum on a node and ends every job exactly once', async () => {
    const { ex, ends } = await coordinator();
    try {
      const ids = Array.from({ length: 6 }, (_, i) =>
        ex.submitJob(oneTaskJob(i % 2 ? 'short' : 'long', leaves(2, spin(i % 2 ? 4 : 15)))),
      );
      await ex.drain();
      expect(ends.map((e) => e.jobId).sort((a, b) => a - b)).toEqual(ids);
      expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
      const c = ex.counters;
      expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
      expect(c.staleEnds).toBe(0);
      expect(c.quanta).toBeGreaterThanOrEqual(12);
      // Each worker id is a worker of one named node.
      expect(new Set(ex.workers().map((w) => w.node))).toEqual(new Set(['north', 'south']));
    } finally {
      await ex.close();
    }
  });

  it('runs a user module across quanta: the coordinator keeps its yielded state for whichever node runs next', async () => {
    const { ex, ends } = await coordinator();
    try {
      const module = join(FIXTURES, 'count-up.mjs');
      const work = {
        kernel: { module, exportName: 'countUp' },
        input: { i: 0, target: 3000, quanta: 0 },
        totalNanos: 1,
      };
      const id = ex.submitJob(oneTaskJob('mine', leaves(1, work)));
      await ex.drain();
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({ jobId: id, state: 'succeeded' });
      const result = ends[0]?.result as { count: number; quanta: number } | undefined;
      expect(result?.count).toBe(3000);
      expect(result?.quanta).toBeGreaterThan(1);
    } finally {
      await ex.close();
    }
  });

  it('cancels a job whose split runs on a node', async () => {
    const { ex, ends } = await coordinator();
    try {
      const id = ex.submitJob(oneTaskJob('long', leaves(1, spin(60_000))));
      await expect.poll(() => ex.counters.splitsRunning, { timeout: 20_000 }).toBe(1);
      ex.cancelJob(id);
      await ex.drain();
      expect(ends).toMatchObject([{ jobId: id, state: 'cancelled' }]);
    } finally {
      await ex.close();
    }
  });

  it("leaves a split alone that another coordinator's cancel names by the same id (split ids are per coordinator)", async () => {
    // What a closing session leaves behind: cancels for its splits whose quanta had ended on the
    // node, which the node keeps as "arrived before the job". Each executor numbers its splits
    // from the start, so the next session's splits carry the same ids.
    const publisher = new Redis(connectionOptions(parseRedisUrl(redis.url)));
    try {
      for (const node of nodes) {
        for (let splitId = 0; splitId < 64; splitId++) {
          const quantum = `gone-${splitId + 1}`;
          const message: ControlMessage = { type: 'cancel', coordinator: 'gone', splitId, quantum };
          await publisher.publish(keys.control('unit', node.instance), JSON.stringify(message));
        }
      }
    } finally {
      publisher.disconnect();
    }
    const { ex, ends } = await coordinator();
    try {
      const id = ex.submitJob(oneTaskJob('after', leaves(4, spin(12))));
      await ex.drain();
      expect(ends).toMatchObject([{ jobId: id, state: 'succeeded' }]);
      expect(ex.counters.splitsCancelled).toBe(0);
    } finally {
      await ex.close();
    }
  });

  it('an interrupt ends a split INTERRUPTED, or not at all: its cancel stops only the quantum it meant', async () => {
    // 1 ms quanta: the quantum the interrupt meant often yields before its cancel reaches the
    // node. Before, the cancel, keyed by split, then stopped the split's next quantum, and the
    // job ended CANCELLED ("quantum ended cancelled") — 14 times in 30.
    const { ex, ends } = await coordinator(1, { policy: 'fifo', quantumMs: 1 });
    try {
      for (let t = 0; t < 12; t++) {
        const id = ex.submitJob(oneTaskJob('j', leaves(1, spin(40))));
        await expect
          .poll(() => ex.workers().find((w) => w.jobId === id)?.splitId ?? null, { interval: 2 })
          .not.toBeNull();
        await new Promise((r) => setTimeout(r, 5 + (t % 4) * 3));
        const running = ex.workers().find((w) => w.jobId === id)?.splitId;
        if (running !== undefined && running !== null) ex.interruptSplit(running);
        await ex.drain();
        const end = ends.find((e) => e.jobId === id);
        if (end?.state !== 'succeeded') expect(end).toMatchObject({ errorCode: 'INTERRUPTED' });
      }
      expect(ends.filter((e) => e.errorCode === 'INTERRUPTED').length).toBeGreaterThan(0);
    } finally {
      await ex.close();
    }
  });

  it('stops sending to a node that leaves (Ctrl-C) and loses nothing it had', async () => {
    const east = await WorkerNode.start({
      redis: redis.url,
      threads: 1,
      name: 'east',
      namespace: 'unit',
    });
    const alarms: string[] = [];
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: 'unit',
      workers: 3,
      onAlarm: (a) => alarms.push(a.kind),
      // The node says it is leaving two of its polls (1 s) before it is gone: polled this often,
      // a late turn of this event loop cannot miss that and take it for lost.
      heartbeat: { ...HEARTBEAT, pollMs: 50 },
    });
    await backend.connect();
    await backend.waitForWorkers(3, 30_000);
    const ex = new Executor(backend, { workers: 3, policy: 'fair', quantumMs: 5 });
    const ends: JobEnd[] = [];
    ex.onJobEnd((e) => ends.push(e));
    try {
      const ids = Array.from({ length: 6 }, () =>
        ex.submitJob(oneTaskJob('a', leaves(2, spin(80)))),
      );
      await expect
        .poll(() => ex.workers().some((w) => w.node === 'east' && w.state === 'running'), {
          timeout: 20_000,
          interval: 5,
        })
        .toBe(true);
      const leaving = east.close();
      await ex.drain();
      await leaving;
      await expect.poll(() => alarms.includes('node-left'), { timeout: 10_000 }).toBe(true);
      expect(ends.map((e) => e.jobId).sort((a, b) => a - b)).toEqual(ids);
      expect(ends.every((e) => e.state === 'succeeded')).toBe(true);
      expect(ex.counters.retries).toBe(0); // nothing it had was lost
      expect(alarms).not.toContain('node-lost');
    } finally {
      await ex.close();
      await east.close();
    }
  });
});

describe('a node leaving after its coordinators', () => {
  it('takes its queue with it: every run of a node left one behind for good', async () => {
    const solo = await WorkerNode.start({ redis: redis.url, threads: 1, namespace: 'solo' });
    const backend = new ClusterBackend({ redis: redis.url, namespace: 'solo', workers: 1 });
    await backend.connect();
    await backend.waitForWorkers(1, 30_000);
    const ex = new Executor(backend, { workers: 1, policy: 'fifo', quantumMs: 5 });
    ex.submitJob(oneTaskJob('a', leaves(2, spin(20))));
    await ex.drain();
    await ex.close();
    const client = new Redis(redis.url);
    try {
      const pattern = `solo:${keys.queue(solo.instance)}*`;
      expect((await client.keys(pattern)).length).toBeGreaterThan(0); // its ended jobs, events
      await solo.close();
      expect(await client.keys(pattern)).toEqual([]);
    } finally {
      client.disconnect();
      await solo.close();
    }
  });
});

describe('a node killed while no coordinator ran', () => {
  it('is taken out of the registry, with its queue, by the next coordinator', async () => {
    // Its entry stayed for good: a coordinator only dropped the nodes it had seen alive.
    const client = new Redis(redis.url);
    const record = { instance: 'gone.000001', name: 'gone', workers: 1, status: 'up' };
    await client.hset(
      keys.nodes('killed'),
      record.instance,
      JSON.stringify({ ...record, host: 'h', pid: 1, startedAt: 0 }),
    );
    await client.xadd(`killed:${keys.queue(record.instance)}:events`, '*', 'event', 'x');
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: 'killed',
      heartbeat: { ...HEARTBEAT, pollMs: 50 },
    });
    try {
      await backend.connect();
      await expect.poll(() => client.hkeys(keys.nodes('killed')), { timeout: 20_000 }).toEqual([]);
      await expect
        .poll(() => client.keys(`killed:${keys.queue(record.instance)}*`), { timeout: 20_000 })
        .toEqual([]);
    } finally {
      client.disconnect();
      await backend.close();
    }
  });
});

describe('a node that dies while leaving', () => {
  it('is said to have left without deregistering: its entry stayed and its beat ran out', async () => {
    // A node's own records, as a node killed (kill -9) after it said `leaving` leaves them: its
    // registry entry stays, its heartbeat runs out. Before: "node … left", as a clean leave.
    const alarms: { kind: string; message: string }[] = [];
    const backend = new ClusterBackend({
      redis: redis.url,
      namespace: 'dying',
      workers: 1,
      onAlarm: (a) => alarms.push({ kind: a.kind, message: a.message }),
      heartbeat: { ...HEARTBEAT, pollMs: 50 },
    });
    const client = new Redis(redis.url);
    try {
      const record = {
        instance: 'west.000001',
        name: 'west',
        workers: 1,
        status: 'up',
        host: 'h',
        pid: 1,
        startedAt: 0,
      };
      const register = (status: string, ttlMs: number) =>
        client
          .multi()
          .hset(keys.nodes('dying'), record.instance, JSON.stringify({ ...record, status }))
          .set(keys.heartbeat('dying', record.instance), '1', 'PX', ttlMs)
          .exec();
      await register('up', 60_000);
      await backend.connect();
      await backend.waitForWorkers(1, 30_000);
      await register('leaving', 300);
      await expect
        .poll(() => alarms.find((a) => a.kind.startsWith('node-') && a.kind !== 'node-joined'), {
          timeout: 20_000,
        })
        .toMatchObject({
          kind: 'node-left',
          message: 'node west left without deregistering (no beat for 3000 ms)',
        });
    } finally {
      client.disconnect();
      await backend.close();
    }
  });
});

describe('values on the cluster (they cross Redis as JSON)', () => {
  it('offers a split whose dispatch Redis will not store again after a pause, and runs it once Redis takes it', async () => {
    // Before: each refusal sent the split back at once and it was dispatched again in the same
    // turn, so a Redis refusing every add (out of memory) kept the coordinator's event loop from
    // ever turning.
    const { ex, ends } = await coordinator();
    const add = vi
      .spyOn(Queue.prototype, 'add')
      .mockRejectedValue(new Error('OOM command not allowed when used memory > maxmemory'));
    try {
      const id = ex.submitJob(oneTaskJob('mine', leaves(1, spin(2))));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const refused = add.mock.calls.length;
      // One add every 100 ms (ADD_RETRY_MS); a busy machine makes it fewer, never more.
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(refused).toBeLessThanOrEqual(11);
      expect(ex.jobState(id)).toBe('running');
      add.mockRestore();
      await ex.drain();
      expect(ends.find((e) => e.jobId === id)).toMatchObject({ state: 'succeeded' });
      // What never reached a node is no quantum: a 2 ms split of 5 ms quanta ran one. Before,
      // each refused add counted one more, with a Gantt span from its dispatch.
      expect(ex.counters.quanta).toBe(1);
      expect(ex.spans.size).toBe(1);
    } finally {
      add.mockRestore();
      await ex.close();
    }
  });

  it('sends a split’s input once a quantum, not inside its work too', async () => {
    // Before: the job held the input twice (`work.input` and `input`; after a yield, the first
    // input beside the state), so an input the size check let through, stored twice, went past
    // V8's longest string: BullMQ's add threw, again and again, and the run never ended.
    const { ex, ends } = await coordinator();
    const add = vi.spyOn(Queue.prototype, 'add');
    try {
      const module = join(FIXTURES, 'count-up.mjs');
      const input = { i: 0, target: 3000, quanta: 0 };
      const work = { kernel: { module, exportName: 'countUp' }, input, totalNanos: 1 };
      const id = ex.submitJob(oneTaskJob('mine', leaves(1, work)));
      await ex.drain();
      expect(ends.find((e) => e.jobId === id)).toMatchObject({ state: 'succeeded' });
      const sent = add.mock.calls.map((c) => c[1] as { work: { input?: unknown }; input: unknown });
      expect(sent.length).toBeGreaterThan(1); // it yielded: later quanta carry its state
      expect(sent[0]?.input).toEqual(input);
      expect(sent.slice(1).every((d) => (d.input as { i: number }).i > 0)).toBe(true);
      expect(sent.every((d) => !('input' in d.work))).toBe(true);
    } finally {
      add.mockRestore();
      await ex.close();
    }
  });

  it('fails a split whose result, yielded state or input JSON cannot carry, naming where, and runs on', async () => {
    // Before: a bigint result or state was never sent (the job never ended), a bigint input was
    // offered again and again in one turn (the coordinator hung), a typed array arrived as an
    // object of its bytes.
    const { ex, ends } = await coordinator();
    try {
      const module = join(FIXTURES, 'tasks.mjs');
      const call = (exportName: string, input: unknown) =>
        ex.submitJob(
          oneTaskJob('mine', leaves(1, { kernel: { module, exportName }, input, totalNanos: 1 })),
        );
      const result = call('bigTotal', 7);
      const state = call('yieldMap', 1);
      const bigInput = call('describe', 10n);
      const bytes = call('describe', { at: [1, new Uint8Array(2)] });
      const fine = call('describe', { at: [1, 2] });
      // Two halves of V8's longest string: BullMQ's add threw and the split was offered again in
      // the same turn, for good. Now the input is refused, and so is a result that long.
      const half = 'x'.repeat(MAX_JSON_CHARS / 2);
      const longInput = call('describe', [half, half]);
      const longResult = call('longText', MAX_JSON_CHARS + 1);
      await ex.drain();
      const end = (id: number) => ends.find((e) => e.jobId === id);
      const failed = (splitError: string) => ({
        state: 'failed',
        errorCode: 'KERNEL_FAILED',
        splitError: `${splitError} (on the cluster values travel as JSON)`,
      });
      expect(end(result)).toMatchObject(failed('result cannot be sent: result.total is a bigint'));
      expect(end(state)).toMatchObject(
        failed('yielded state cannot be sent: state is a Map, not a plain object or array'),
      );
      expect(end(bigInput)).toMatchObject(failed('input cannot be sent: input is a bigint'));
      expect(end(bytes)).toMatchObject(
        failed('input cannot be sent: input.at[1] is a Uint8Array, not a plain object or array'),
      );
      const over = `larger than ${MAX_JSON_CHARS} characters as JSON (the cluster's limit)`;
      expect(end(longInput)).toMatchObject(failed(`input cannot be sent: input is ${over}`));
      expect(end(longResult)).toMatchObject(failed(`result cannot be sent: result is ${over}`));
      expect(end(fine)).toMatchObject({
        state: 'succeeded',
        result: { type: 'object', value: { at: [1, 2] } },
      });
      expect(ex.counters.staleEnds).toBe(0);
    } finally {
      await ex.close();
    }
  });
});

describe('what a user module hands back on the cluster, as on threads', () => {
  it('keeps a -0 in an input, a yielded state and a result (JSON writes it 0)', async () => {
    const { ex, ends } = await coordinator();
    try {
      const module = join(FIXTURES, 'tasks.mjs');
      const input = { z: -0, list: [1, -0, { deep: -0 }], zero: 0 };
      const work = { kernel: { module, exportName: 'carry' }, input, totalNanos: 1 };
      const id = ex.submitJob(oneTaskJob('mine', leaves(1, work)));
      const top = ex.submitJob(
        oneTaskJob(
          'mine',
          leaves(1, { ...work, kernel: { module, exportName: 'describe' }, input: -0 }),
        ),
      );
      await ex.drain();
      // Before: every -0 arrived as 0.
      const result = ends.find((e) => e.jobId === id)?.result as typeof input;
      expect(Object.is(result.z, -0)).toBe(true);
      expect(Object.is(result.list[1], -0)).toBe(true);
      expect(Object.is((result.list[2] as { deep: number }).deep, -0)).toBe(true);
      expect(Object.is(result.zero, 0)).toBe(true);
      const described = ends.find((e) => e.jobId === top)?.result as { value: number };
      expect(Object.is(described.value, -0)).toBe(true);
    } finally {
      await ex.close();
    }
  });

  it("carries a thrown error's code to the job (its cause, and the row's causeCode)", async () => {
    const { ex, ends } = await coordinator();
    try {
      const module = join(FIXTURES, 'tasks.mjs');
      const call = (input: unknown) =>
        ex.submitJob(
          oneTaskJob(
            'mine',
            leaves(1, { kernel: { module, exportName: 'throwCoded' }, input, totalNanos: 1 }),
          ),
        );
      const text = call('E_MINE');
      const number = call(42);
      await ex.drain();
      // Before: the cluster dropped what was thrown; only the message reached the job.
      expect(ends.find((e) => e.jobId === text)?.cause).toMatchObject({
        name: 'Error',
        message: 'failed with E_MINE',
        code: 'E_MINE',
      });
      expect(ex.jobDetail(text).job.causeCode).toBe('E_MINE');
      expect(ends.find((e) => e.jobId === number)?.cause?.code).toBe(42);
    } finally {
      await ex.close();
    }
  });
});

describe('user modules on a node', () => {
  it('load only from the directories the node was started with', () => {
    expect(moduleRefusal({ module: join(FIXTURES, 'count-up.mjs') }, [FIXTURES])).toBeNull();
    expect(moduleRefusal({ module: join(FIXTURES, 'count-up.mjs') }, [])).toMatch(
      /none were given/,
    );
    const outside = fileURLToPath(new URL('./protocol.ts', import.meta.url));
    expect(moduleRefusal({ module: outside }, [FIXTURES])).toMatch(/outside this node's --modules/);
    expect(moduleRefusal({ module: 'count-up.mjs' }, [FIXTURES])).toMatch(/absolute path/);
  });
});

describe('--redis URLs', () => {
  it('refuses a Redis off loopback without a password, naming the field', () => {
    expect(() => parseRedisUrl('redis://10.0.0.5:6379')).toThrow(/needs a password/);
    expect(parseRedisUrl('redis://:s3cret@10.0.0.5:6380/2')).toMatchObject({
      host: '10.0.0.5',
      port: 6380,
      db: 2,
      display: 'redis://:***@10.0.0.5:6380/2',
    });
    expect(() => parseRedisUrl('http://127.0.0.1')).toThrow(/scheme/);
  });

  it('never shows a password, whatever it holds', () => {
    // Before: one with `@` or a space was printed whole in every log line and error.
    for (const password of ['p@ss', 'sec ret', 'a:b@c', 'p%40ss', 's3cret']) {
      const url = `redis://:${password}@127.0.0.1:6391`;
      const target = parseRedisUrl(url);
      expect(target.display).toBe('redis://:***@127.0.0.1:6391');
      expect(target.password).toBe(password === 'p%40ss' ? 'p@ss' : password);
    }
    expect(parseRedisUrl('redis://user:p@ss@127.0.0.1/3').display).toBe(
      'redis://user:***@127.0.0.1/3',
    );
    // Refused, the URL is named with its password masked too.
    expect(() => parseRedisUrl('redis://:p@ss@10.0.0.5/99')).toThrow(
      'redis://:***@10.0.0.5/99: database',
    );
    expect(() => parseRedisUrl('redis://:p@ss@[bad')).toThrow(
      '--redis redis://:***@[bad: not a URL',
    );
  });

  it('refuses port 0 and a port past 65535 by what is wrong with them', () => {
    // Port 0 was taken and every connection waited out its bound; 99999 read "not a URL".
    expect(() => parseRedisUrl('redis://127.0.0.1:0')).toThrow(
      '--redis redis://127.0.0.1:0: port must be 1 to 65535, got 0',
    );
    expect(() => parseRedisUrl('redis://:s3cret@127.0.0.1:99999/1')).toThrow(
      '--redis redis://:***@127.0.0.1:99999/1: port must be 1 to 65535, got 99999',
    );
    expect(() => parseRedisUrl('redis://[::1]:70000')).toThrow(
      'port must be 1 to 65535, got 70000',
    );
    expect(parseRedisUrl('redis://127.0.0.1:65535').port).toBe(65535);
  });
});

describe('a Redis that refuses the URL’s credentials', { timeout: 120_000 }, () => {
  let guarded: TestRedis;
  beforeAll(async () => {
    guarded = await startTestRedis({ password: 'p@ss-word' });
  });
  afterAll(() => guarded?.stop());

  it('is said at once, coded, by a coordinator and by a node', async () => {
    // Before: the coordinator waited its whole bound (30 s in `run`) and said Redis "did not
    // answer"; a node threw the raw WRONGPASS reply, uncoded.
    const port = new URL(guarded.url).port;
    for (const url of [`redis://:wrong@127.0.0.1:${port}`, `redis://127.0.0.1:${port}`]) {
      const backend = new ClusterBackend({ redis: url, namespace: 'auth' });
      const started = Date.now();
      await expect(backend.connect(40_000)).rejects.toMatchObject({
        code: 'CLUSTER_UNAVAILABLE',
        message: expect.stringMatching(/refused the URL's credentials: (WRONGPASS|NOAUTH)/),
      });
      expect(Date.now() - started).toBeLessThan(20_000); // not the 40 s bound
      await backend.close();
      await expect(
        WorkerNode.start({ redis: url, threads: 1, namespace: 'auth' }),
      ).rejects.toMatchObject({
        code: 'CLUSTER_UNAVAILABLE',
        message: expect.stringContaining(
          `redis://${url.includes('wrong') ? ':***@' : ''}127.0.0.1`,
        ),
      });
    }
    // The right one connects.
    const backend = new ClusterBackend({ redis: guarded.url, namespace: 'auth' });
    await backend.connect(20_000);
    await backend.close();
  });
});
