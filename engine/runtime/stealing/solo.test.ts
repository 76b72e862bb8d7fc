import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument, compileGraph } from '../../core/graph/compile.ts';
import { MAX_SOLO_NODES } from './solo-loop.ts';
import { StealingExecutor } from './stealing-executor.ts';

// One executor with the default `soloNodes`, one that always uses its workers.
let solo: StealingExecutor;
let workers: StealingExecutor;
beforeAll(async () => {
  solo = await StealingExecutor.start(2);
  workers = await StealingExecutor.start(2, { soloNodes: 0 });
});
afterAll(async () => {
  await solo.close();
  await workers.close();
});

const graph = (doc: object) => compileDocument(parseGraphDocument({ kernel: 'add', ...doc }));

const SHAPES = [
  { generator: 'chain', length: 2000 },
  { generator: 'independent', count: 3000 },
  { generator: 'layered-random', levels: 30, width: 40, seed: 7 },
];

describe('solo runs (a small graph of instant nodes on the calling thread)', () => {
  for (const shape of SHAPES) {
    it(`${shape.generator}: same states and results as a run on the workers, every node once and in order`, async () => {
      const g = graph(shape);
      const a = await solo.run(g, { verify: true });
      const aStates = a.states.slice();
      // The results live in the executor's memory: checked by the verification pass of each run.
      const b = await workers.run(g, { verify: true });
      expect(a.solo).toBe(true);
      expect(b.solo).toBe(false);
      expect(a.verification).toEqual({ ok: true, checked: 'order', problems: [] });
      expect(b.verification).toEqual({ ok: true, checked: 'order', problems: [] });
      expect(aStates).toEqual(b.states);
      expect(a.counts).toEqual(b.counts);
      expect(a.counts.succeeded).toBe(g.nodeCount);
      expect(a.attempts).toBe(g.nodeCount);
    });
  }

  it('runs a graph mixing instant kernels solo, each node with its own kernel', async () => {
    const n = 500;
    const g = compileGraph({
      nodeCount: n,
      from: Int32Array.from({ length: n - 1 }, (_, i) => i),
      to: Int32Array.from({ length: n - 1 }, (_, i) => i + 1),
      costNanos: new Float64Array(n),
      retries: new Uint8Array(n),
      failProbability: null,
      kernels: ['noop', 'add'],
      kernelOf: Uint16Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0)),
      ids: null,
    });
    for (const verify of [false, true]) {
      const r = await solo.run(g, { verify });
      expect(r.solo).toBe(true);
      expect(r.verification.ok).toBe(true);
      expect(r.counts.succeeded).toBe(n);
    }
  });

  it('runs an explicit document of instant nodes solo, like the generated one', async () => {
    // Before: an explicit document's kernel table holds the default kernel (`spin`) first, used
    // or not, so no explicit graph ever ran solo (10,000 `noop` nodes: 19 ms on the workers
    // against 0.3 ms for the generated chain).
    const explicit = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'a', kernel: 'add' },
          { id: 'b', kernel: 'noop' },
          { id: 'c', kernel: 'add' },
        ],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'c' },
        ],
      }),
    );
    const r = await solo.run(explicit, { verify: true });
    expect(r.solo).toBe(true);
    expect(r.counts.succeeded).toBe(3);
    // A node left to the default kernel still goes to the workers.
    const spinning = compileDocument(
      parseGraphDocument({ nodes: [{ id: 'a' }, { id: 'b', kernel: 'add' }] }),
    );
    expect((await solo.run(spinning)).solo).toBe(false);
  });

  it('attributes the work to the caller: one lane, every node, no steals', async () => {
    const g = graph({ generator: 'layered-random', levels: 20, width: 20, seed: 2 });
    const r = await solo.run(g);
    expect(r.workers).toBe(1);
    expect(r.perWorker).toHaveLength(1);
    expect(r.perWorker[0]!.executed).toBe(g.nodeCount);
    expect(r.steals).toBe(0);
    expect(r.sleeps).toBe(0);
    // Every node of a 400-node graph is sampled (at most 256 spans a run: one in two here).
    expect(r.spans.length).toBe(Math.floor(g.nodeCount / r.spanSampleEvery));
    expect(r.spans.every((s) => s.workerId === 0 && s.outcome === 'finished')).toBe(true);
    expect(r.droppedSpans).toBe(0);
    expect(r.makespanNanos).toBeGreaterThanOrEqual(0);
    expect(r.efficiency).toBeLessThanOrEqual(1);
  });

  it('runs solo only when eligible: a cost, a non-instant kernel or a graph over the limit goes to the workers', async () => {
    const small = { generator: 'chain', length: 50 };
    expect((await solo.run(graph(small))).solo).toBe(true);
    expect((await solo.run(graph({ ...small, kernel: 'noop' }))).solo).toBe(true);
    // `spin` is the default kernel: never solo, even at cost 0.
    expect((await solo.run(graph({ ...small, kernel: undefined }))).solo).toBe(false);
    const costly = await solo.run(graph({ ...small, kernel: 'spin-us', cost: 0.01 }));
    expect(costly.solo).toBe(false);
    expect(costly.counts.succeeded).toBe(50);
    const failing = await solo.run(graph({ ...small, kernel: 'fail' }), { errorMode: 'continue' });
    expect(failing.solo).toBe(false);
    expect(failing.counts.failed).toBe(1);
    const limited = await StealingExecutor.start(1, { soloNodes: 100 });
    try {
      expect((await limited.run(graph({ generator: 'chain', length: 100 }))).solo).toBe(true);
      expect((await limited.run(graph({ generator: 'chain', length: 101 }))).solo).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('rejects a bad soloNodes with a coded error naming the field and its limit', async () => {
    for (const soloNodes of [-1, 1.5, MAX_SOLO_NODES + 1, Number.NaN]) {
      await expect(StealingExecutor.start(1, { soloNodes })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'soloNodes',
        message: expect.stringContaining(`0..${MAX_SOLO_NODES}`),
      });
    }
  });
});
