import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGraphDocument, type GraphPolicy } from '../../../shared/graph.ts';
import { compileDocument, compileGraph, type CompiledGraph } from '../../core/graph/compile.ts';
import { NODE_STATES, SUCCEEDED } from '../../core/graph/node-state.ts';
import { descendants, randomDag } from '../../core/graph/random-dag.ts';
import { dagInput as graphInput } from './testing.ts';
import { SimBackend } from '../sim/index.ts';
import { runGraphCentral, startGraphCentral, type CentralRunOptions } from './central-executor.ts';

const MS = 1e6;
const POLICIES: GraphPolicy[] = ['fifo', 'lifo', 'most-successors', 'sjf', 'ljf', 'critical-path'];

async function simulate(graph: CompiledGraph, workers: number, options: CentralRunOptions = {}) {
  const sim = new SimBackend({ workers, seed: 1 });
  const done = runGraphCentral(sim, graph, options);
  sim.runUntilIdle();
  return done;
}

const dagInput = graphInput(40);

describe('central graph executor on the simulator', () => {
  it('runs every node exactly once, never before its predecessors end, within Graham’s bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        dagInput,
        fc.constantFrom(...POLICIES),
        fc.integer({ min: 1, max: 4 }),
        async (input, policy, p) => {
          const { failProbability: _none, ...healthy } = input;
          const g = compileGraph(randomDag(healthy));
          const report = await simulate(g, p, { policy });
          expect(report.counts.succeeded).toBe(g.nodeCount);
          const finished = report.spans.filter((s) => s.outcome === 'finished');
          expect(finished.map((s) => s.nodeIndex).sort((a, b) => a - b)).toEqual([
            ...Array(g.nodeCount).keys(),
          ]);
          const span = new Map(finished.map((s) => [s.nodeIndex, s]));
          for (let v = 0; v < g.nodeCount; v++) {
            for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
              expect(span.get(g.successors[k]!)!.startNanos).toBeGreaterThanOrEqual(
                span.get(v)!.endNanos,
              );
            }
          }
          expect(report.grahamRatio).toBeLessThanOrEqual(1 + 1e-9);
          expect(report.makespanNanos).toBeGreaterThanOrEqual(report.lowerBoundNanos);
        },
      ),
    );
  });

  it('continue mode: nodes that fail every attempt end failed after their retries, descendants skipped', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, async (input) => {
        const g = compileGraph(randomDag(input));
        const report = await simulate(g, 2, { errorMode: 'continue' });
        const failed = [...Array(g.nodeCount).keys()].filter((v) => input.failProbability[v] === 1);
        const skipped = descendants(g, failed);
        const expected = [...Array(g.nodeCount).keys()].map((v) =>
          skipped.has(v) ? 'skipped' : failed.includes(v) ? 'failed' : 'succeeded',
        );
        expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual(expected);
        const tried = failed.filter((v) => !skipped.has(v));
        expect(report.attempts).toBe(
          expected.filter((s) => s === 'succeeded').length +
            tried.reduce((a, v) => a + 1 + input.retries[v]!, 0),
        );
      }),
    );
  });

  it('fail-fast: one root cause with its node id, nothing downstream ran, running nodes cancelled', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, fc.integer({ min: 1, max: 3 }), async (input, p) => {
        const g = compileGraph(randomDag(input));
        const report = await simulate(g, p, { errorMode: 'fail-fast' });
        const counts = report.counts;
        expect(counts.pending + counts.ready + counts.running + counts.skipped).toBe(0);
        const anyFails = input.failProbability.includes(1);
        expect(counts.failed).toBe(anyFails ? 1 : 0);
        if (!anyFails) return;
        const cause = report.rootCause!;
        expect(input.failProbability[cause.index]).toBe(1);
        expect(cause.node).toBe(`n${cause.index}`);
        expect(cause.message).toMatch(/injected failure/);
        for (const d of descendants(g, [cause.index]))
          expect(NODE_STATES[report.states[d]!]).toBe('cancelled');
        for (let v = 0; v < g.nodeCount; v++) {
          for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
            if (report.states[g.successors[k]!] === SUCCEEDED)
              expect(report.states[v]).toBe(SUCCEEDED);
          }
        }
      }),
    );
  });

  it('fail-fast stops a long node that is running when another fails', async () => {
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'boom', cost: 1, failProbability: 1 },
          { id: 'long', cost: 100 },
        ],
      }),
    );
    const report = await simulate(g, 2, { errorMode: 'fail-fast' });
    expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual(['failed', 'cancelled']);
    expect(report.rootCause?.node).toBe('boom');
    expect(report.makespanNanos).toBe(1 * MS);
  });

  it('on the diamond with B long, critical-path finishes before FIFO', async () => {
    const g = compileDocument(
      parseGraphDocument({ generator: 'diamond', width: 2, longCost: 10, cost: 1 }),
    );
    const fifo = await simulate(g, 2, { policy: 'fifo' });
    const cp = await simulate(g, 2, { policy: 'critical-path' });
    expect(cp.makespanNanos).toBe(12 * MS); // = the critical path A → B → D
    expect(fifo.makespanNanos).toBe(13 * MS);
    expect(cp.makespanNanos).toBeLessThan(fifo.makespanNanos);
  });

  it('critical-path reaches efficiency ≥ 0.9 on layered random DAGs of coarse nodes with 2 workers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1_000_000),
        fc.integer({ min: 4, max: 16 }),
        fc.integer({ min: 5, max: 30 }),
        async (seed, width, levels) => {
          const g = compileDocument(
            parseGraphDocument({
              generator: 'layered-random',
              levels,
              width,
              seed,
              cost: 1,
              maxCost: 10,
            }),
          );
          const report = await simulate(g, 2, { policy: 'critical-path' });
          expect(report.efficiency).toBeGreaterThanOrEqual(0.9);
        },
      ),
    );
  });

  it('records spans with node ids, keeping only the most recent beyond its cap', async () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 1 }));
    const report = await simulate(g, 2, { maxSpans: 4 });
    expect(report.spans.map((s) => s.node)).toEqual(['n6', 'n7', 'n8', 'n9']);
    expect(report.droppedSpans).toBe(6);
    expect(report.spans[0]).toMatchObject({
      startNanos: 6 * MS,
      endNanos: 7 * MS,
      outcome: 'finished',
    });
  });

  it('holds the node of at most the spans its ring keeps, however many attempts a run makes', async () => {
    // Every node yields twice (three quanta) and the ring keeps 8 spans: the spans still name
    // their nodes, while the run holds a node for at most the ring's splits and the live ones.
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 3000, cost: 3 }));
    const sim = new SimBackend({ workers: 2 });
    const run = startGraphCentral(sim, g, { maxSpans: 8, quantumNanos: MS });
    let most = 0;
    for (let t = 0; t <= 9_100 * MS; t += 5 * MS) {
      sim.runUntil(t);
      most = Math.max(most, run.heldSplits);
    }
    sim.runUntilIdle();
    const report = await run.done;
    expect(report.counts.succeeded).toBe(3000);
    expect(report.spans.map((s) => s.node)).toEqual([
      'n2997',
      'n2997',
      'n2998',
      'n2998',
      'n2998',
      'n2999',
      'n2999',
      'n2999',
    ]);
    expect(most).toBeLessThanOrEqual(2 * 8 + 4);
  });

  it('re-dispatches a node that yields at the quantum until its work is done', async () => {
    const g = compileDocument(parseGraphDocument({ nodes: [{ id: 'a', cost: 10 }] }));
    const report = await simulate(g, 1, { quantumNanos: 3 * MS });
    expect(report.dispatches).toBe(4);
    expect(report.workNanos).toBe(10 * MS);
    expect(report.makespanNanos).toBe(10 * MS);
  });

  it('cancels a run on request: the running node stops, nothing else starts, no root cause', async () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 1 }));
    const sim = new SimBackend({ workers: 2 });
    const handle = startGraphCentral(sim, g);
    sim.runUntil(3.5 * MS);
    handle.cancel();
    sim.runUntilIdle();
    const report = await handle.done;
    expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual([
      ...Array<string>(3).fill('succeeded'),
      ...Array<string>(7).fill('cancelled'),
    ]);
    expect(report.rootCause).toBeNull();
    expect(report.spans.at(-1)).toMatchObject({
      node: 'n3',
      outcome: 'cancelled',
      endNanos: 3.5 * MS,
    });
  });

  it('rejects a kernel no backend has', async () => {
    const g = compileDocument(parseGraphDocument({ nodes: [{ id: 'a', kernel: 'noop' }] }));
    await expect(simulate(g, 1)).rejects.toMatchObject({ code: 'UNKNOWN_KERNEL' });
  });
});
