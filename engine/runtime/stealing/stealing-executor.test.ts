import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument, compileGraph } from '../../core/graph/compile.ts';
import { NODE_STATES, SUCCEEDED } from '../../core/graph/node-state.ts';
import { descendants, randomDag } from '../../core/graph/random-dag.ts';
import { StealingExecutor } from './stealing-executor.ts';
import { SAMPLED_SPANS } from './layout.ts';

let executor: StealingExecutor;
beforeAll(async () => {
  executor = await StealingExecutor.start(2, { soloNodes: 0 });
});
afterAll(async () => {
  await executor.close();
});

// Kernel table for random DAGs: 0 = add, 1 = fail.
const dagInput = fc.integer({ min: 1, max: 60 }).chain((n) =>
  fc.record({
    order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
    pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
    costs: fc.constant(new Array<number>(n).fill(0)),
    kernelOf: fc.array(
      fc.integer({ min: 0, max: 9 }).map((k) => (k === 0 ? 1 : 0)),
      { minLength: n, maxLength: n },
    ),
    retries: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
  }),
);
const build = (input: Parameters<typeof randomDag>[0]) =>
  compileGraph(randomDag({ ...input, kernels: ['add', 'fail'] }));

const stateNames = (states: Uint8Array) => Array.from(states, (s) => NODE_STATES[s]);

describe('StealingExecutor', () => {
  it('runs every node of random DAGs exactly once, after all its predecessors', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, async (input) => {
        const g = build({ ...input, kernelOf: input.kernelOf.map(() => 0) });
        const report = await executor.run(g, { verify: true });
        expect(report.verification).toEqual({ ok: true, checked: 'order', problems: [] });
        expect(report.counts.succeeded).toBe(g.nodeCount);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('continue mode: failing nodes fail after their retries, descendants are skipped, the rest succeed', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, async (input) => {
        const g = build(input);
        const report = await executor.run(g, { errorMode: 'continue', verify: true });
        const failed = [...Array(g.nodeCount).keys()].filter((v) => input.kernelOf[v] === 1);
        const skipped = descendants(g, failed);
        const expected = [...Array(g.nodeCount).keys()].map((v) =>
          skipped.has(v) ? 'skipped' : failed.includes(v) ? 'failed' : 'succeeded',
        );
        expect(stateNames(report.states)).toEqual(expected);
        expect(report.verification.ok).toBe(true);
        const ran = expected.filter((s) => s !== 'skipped').length;
        const retried = failed
          .filter((v) => !skipped.has(v))
          .reduce((sum, v) => sum + input.retries[v]!, 0);
        expect(report.attempts).toBe(ran + retried);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('fail-fast: the root cause is a failing node, nothing downstream of it runs, every node ends', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, async (input) => {
        const g = build(input);
        const report = await executor.run(g, { errorMode: 'fail-fast', verify: true });
        expect(report.verification.ok).toBe(true);
        expect(report.counts.pending + report.counts.skipped).toBe(0);
        const anyFails = input.kernelOf.includes(1);
        expect(report.rootCause === null).toBe(!anyFails);
        if (report.rootCause === null) return;
        const cause = report.rootCause.index;
        expect(input.kernelOf[cause]).toBe(1);
        for (let v = 0; v < g.nodeCount; v++) {
          if (report.states[v] === NODE_STATES.indexOf('failed')) expect(input.kernelOf[v]).toBe(1);
        }
        for (const d of descendants(g, [cause]))
          expect(NODE_STATES[report.states[d]!]).toBe('cancelled');
        for (let v = 0; v < g.nodeCount; v++) {
          for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
            if (report.states[g.successors[k]!] === SUCCEEDED)
              expect(report.states[v]).toBe(SUCCEEDED);
          }
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('fail-fast cancels a long spinning node cooperatively', async () => {
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'boom', kernel: 'fail' },
          { id: 'spin', kernel: 'spin-us', cost: 30_000 },
        ],
      }),
    );
    const report = await executor.run(g, { errorMode: 'fail-fast' });
    expect(stateNames(report.states)).toEqual(['failed', 'cancelled']);
    expect(report.rootCause?.node).toBe('boom');
  }, 20_000);

  it('cancels a run on request: started nodes finish or stop, the rest end cancelled', async () => {
    // 2000 nodes of 1 ms spinning: far longer than the cancel takes to arrive.
    const g = compileDocument(
      parseGraphDocument({ generator: 'independent', count: 2000, kernel: 'spin-us', cost: 1 }),
    );
    const running = executor.run(g);
    executor.cancel();
    const report = await running;
    expect(report.counts.cancelled).toBeGreaterThan(1000);
    expect(report.counts.succeeded + report.counts.cancelled).toBe(2000);
    expect(report.rootCause).toBeNull();
  }, 20_000);

  it('refuses a kernel it does not have, and keeps working', async () => {
    const g = compileDocument(parseGraphDocument({ nodes: [{ id: 'a', kernel: 'matmul' }] }));
    await expect(executor.run(g)).rejects.toMatchObject({ code: 'UNKNOWN_KERNEL' });
    const ok = compileDocument(parseGraphDocument({ nodes: [{ id: 'a', kernel: 'add' }] }));
    expect((await executor.run(ok)).counts.succeeded).toBe(1);
  });

  it('refuses injected failures it cannot draw, naming the node, and keeps working', async () => {
    // Before: the graph ran with no failure at all, where the central executor failed the node.
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'a', kernel: 'add' },
          { id: 'b', kernel: 'add', failProbability: 1 },
        ],
      }),
    );
    await expect(executor.run(g)).rejects.toMatchObject({
      code: 'INVALID_GRAPH',
      field: 'failProbability',
      message: expect.stringContaining('failProbability (node "b")'),
    });
    const ok = compileDocument(parseGraphDocument({ nodes: [{ id: 'a', kernel: 'add' }] }));
    expect((await executor.run(ok)).counts.succeeded).toBe(1);
  });

  it('wakes sleeping workers whenever new work appears (a comb: chain with a spinning leaf per link)', async () => {
    // Node 2i → 2i+2 continues the chain, 2i → 2i+1 is a leaf pushed for a thief: the other worker
    // repeatedly runs dry, sleeps, and must be woken by the next push.
    const links = 3000;
    const from: number[] = [];
    const to: number[] = [];
    for (let i = 0; i < links; i++) {
      if (i + 1 < links) (from.push(2 * i), to.push(2 * i + 2));
      (from.push(2 * i), to.push(2 * i + 1));
    }
    const n = 2 * links;
    const g = compileGraph({
      nodeCount: n,
      from: Int32Array.from(from),
      to: Int32Array.from(to),
      costNanos: new Float64Array(n).fill(20_000),
      retries: new Uint8Array(n),
      failProbability: null,
      kernels: ['add', 'spin-us'],
      kernelOf: Uint16Array.from({ length: n }, (_, v) => v % 2),
      ids: null,
    });
    for (let run = 0; run < 5; run++) {
      const report = await executor.run(g, { verify: true });
      expect(report.verification.problems).toEqual([]);
      expect(report.counts.succeeded).toBe(n);
    }
  }, 60_000);

  it('samples spans with node ids: every node of a small graph, a bounded sample of a large one', async () => {
    const chain = compileDocument(
      parseGraphDocument({ generator: 'chain', length: 100, kernel: 'spin-us', cost: 0.02 }),
    );
    const small = await executor.run(chain);
    expect(small.spanSampleEvery).toBe(1);
    expect(small.spans.map((s) => s.node).sort()).toEqual(
      [...Array(100).keys()].map((i) => `n${i}`).sort(),
    );
    for (const s of small.spans) {
      expect(s.outcome).toBe('finished');
      expect(s.endNanos - s.startNanos).toBeGreaterThanOrEqual(19_000); // spun ≥ 20 µs, rounding aside
    }
    const wide = compileDocument(parseGraphDocument({ generator: 'independent', count: 20_000 }));
    const large = await executor.run(wide);
    // At most SAMPLED_SPANS (256) a run: one node in ceil(20,000 / 256) = 79.
    expect(large.spanSampleEvery).toBe(79);
    // Each worker samples every 79th node it processed.
    const sampled = large.perWorker.reduce((sum, w) => sum + Math.floor(w.executed / 79), 0);
    expect(sampled).toBeGreaterThanOrEqual(Math.floor(20_000 / 79) - 1);
    expect(sampled).toBeLessThanOrEqual(SAMPLED_SPANS);
    // However unevenly the workers shared the nodes, every sample fits: none dropped.
    expect(large.droppedSpans).toBe(0);
    expect(large.spans.length).toBe(sampled);
    // A caller's own rate may sample more than the rings keep: the rest is counted as dropped.
    const every = await executor.run(wide, { sampleEvery: 1 });
    expect(every.spanSampleEvery).toBe(1);
    expect(every.spans.length + every.droppedSpans).toBe(20_000);
    expect(every.spans.length).toBeLessThanOrEqual(2 * SAMPLED_SPANS);
  }, 30_000);

  it("a trace never shows a node starting before a predecessor's span ended, and a skipped node has no span", async () => {
    // Wide layers of tiny nodes keep both workers stealing: a successor a thief takes the moment
    // it is released must still start after its predecessor's span (once read after the release).
    const g = compileDocument(
      parseGraphDocument({ generator: 'layered-random', levels: 40, width: 50, seed: 3 }),
    );
    for (let round = 0; round < 20; round++) {
      const r = await executor.run(g, { sampleEvery: 1 });
      const byNode = new Map(r.spans.map((sp) => [sp.nodeIndex, sp]));
      const early: string[] = [];
      for (let v = 0; v < g.nodeCount; v++) {
        const from = byNode.get(v);
        for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
          const to = byNode.get(g.successors[k]!);
          if (from !== undefined && to !== undefined && to.startNanos < from.endNanos)
            early.push(`${from.node} → ${to.node} by ${from.endNanos - to.startNanos} ns`);
        }
      }
      expect(early).toEqual([]);
    }
    // continue mode: the failing node's span says failed; its descendants never ran, no span.
    const failing = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'bad', kernel: 'fail' },
          { id: 'after', kernel: 'add' },
          { id: 'other', kernel: 'add' },
        ],
        edges: [{ from: 'bad', to: 'after' }],
      }),
    );
    const r = await executor.run(failing, { errorMode: 'continue', sampleEvery: 1 });
    expect(stateNames(r.states)).toEqual(['failed', 'skipped', 'succeeded']);
    expect(r.spans.map((sp) => `${sp.node}:${sp.outcome}`).sort()).toEqual([
      'bad:failed',
      'other:finished',
    ]);
  }, 30_000);

  it('reports every time as integer ns from the run start, within the makespan', async () => {
    const g = compileDocument(
      parseGraphDocument({ generator: 'binary-tree', depth: 7, kernel: 'spin-us', cost: 0.02 }),
    );
    const r = await executor.run(g);
    const times = [
      r.makespanNanos,
      r.idleNanos,
      ...r.perWorker.flatMap((w) => [w.startNanos, w.endNanos, w.idleNanos]),
      ...r.spans.flatMap((sp) => [sp.startNanos, sp.endNanos]),
    ];
    expect(times.filter((t) => !Number.isInteger(t))).toEqual([]);
    expect(Math.min(...r.perWorker.map((w) => w.startNanos))).toBeGreaterThanOrEqual(0);
    for (const sp of r.spans) {
      expect(sp.startNanos).toBeGreaterThanOrEqual(0);
      expect(sp.endNanos).toBeGreaterThanOrEqual(sp.startNanos);
      expect(sp.endNanos).toBeLessThanOrEqual(r.makespanNanos);
    }
  }, 30_000);

  it('runs on a single worker', async () => {
    const one = await StealingExecutor.start(1, { soloNodes: 0 });
    try {
      const g = compileDocument(
        parseGraphDocument({ generator: 'wavefront', rows: 30, cols: 30, kernel: 'add' }),
      );
      const report = await one.run(g, { verify: true });
      expect(report.verification.ok).toBe(true);
      expect(report.steals).toBe(0);
    } finally {
      await one.close();
    }
  }, 20_000);
});

describe('StealingExecutor under stress: 1M tiny nodes, repeated', () => {
  const shapes = [
    { generator: 'independent', count: 1_000_000 },
    { generator: 'chain', length: 1_000_000 },
    { generator: 'binary-tree', depth: 20 }, // 1,048,575 nodes
    { generator: 'wavefront', rows: 1000, cols: 1000 },
  ];
  for (const shape of shapes) {
    it(`${shape.generator}: every node once, in order, with correct results, three runs`, async () => {
      const g = compileDocument(parseGraphDocument({ ...shape, kernel: 'add' }));
      expect(g.nodeCount).toBeGreaterThanOrEqual(1_000_000);
      for (let run = 0; run < 3; run++) {
        const report = await executor.run(g, { verify: run === 0 });
        expect(report.verification.problems).toEqual([]);
        expect(report.counts.succeeded).toBe(g.nodeCount);
      }
    }, 60_000);
  }
});
