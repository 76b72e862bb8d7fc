import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument, compileGraph } from '../../core/graph/compile.ts';
import { NODE_STATES } from '../../core/graph/node-state.ts';
import { randomDag } from '../../core/graph/random-dag.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { runGraphCentral } from './central-executor.ts';

const failing = new URL('../threads/fixtures/failing.mjs', import.meta.url).href;
let backend: ThreadsBackend;
beforeAll(async () => {
  backend = new ThreadsBackend({ workers: 2 });
  await backend.ready();
});
afterAll(async () => {
  await backend.close();
});

describe('central graph executor on real threads', () => {
  it('runs every node of random DAGs exactly once, after its predecessors end', async () => {
    const input = fc.integer({ min: 1, max: 25 }).chain((n) =>
      fc.record({
        order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
        costs: fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: n, maxLength: n }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(input, async (dag) => {
        const g = compileGraph(randomDag(dag));
        const report = await runGraphCentral(backend, g, { policy: 'critical-path' });
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
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('runs a wavefront of real spin work in dependency order', async () => {
    const g = compileDocument(
      parseGraphDocument({ generator: 'wavefront', rows: 4, cols: 4, cost: 0.2, kernel: 'spin' }),
    );
    const report = await runGraphCentral(backend, g, { policy: 'critical-path' });
    expect(report.counts.succeeded).toBe(16);
    const span = new Map(report.spans.map((s) => [s.nodeIndex, s]));
    expect(span.size).toBe(16);
    for (let v = 0; v < g.nodeCount; v++) {
      for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
        expect(span.get(g.successors[k]!)!.startNanos).toBeGreaterThanOrEqual(
          span.get(v)!.endNanos,
        );
      }
    }
    expect(report.workNanos).toBeGreaterThan(0);
  }, 30_000);

  it('continue mode: a throwing user module fails its node, skips its descendants, the rest finish', async () => {
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'root', cost: 0.1 },
          { id: 'bad', kernel: { module: failing, exportName: 'throws' }, retries: 1 },
          { id: 'after-bad', cost: 0.1 },
          { id: 'good', cost: 0.1 },
        ],
        edges: [
          { from: 'root', to: 'bad' },
          { from: 'bad', to: 'after-bad' },
          { from: 'root', to: 'good' },
        ],
        errorMode: 'continue',
      }),
    );
    const report = await runGraphCentral(backend, g, { errorMode: 'continue' });
    expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual([
      'succeeded',
      'failed',
      'skipped',
      'succeeded',
    ]);
    expect(report.rootCause).toMatchObject({ node: 'bad' });
    expect(report.rootCause?.message).toMatch(/fixture failed on purpose/);
    expect(report.attempts).toBe(4); // root, bad twice (one retry), good
  }, 30_000);
});
