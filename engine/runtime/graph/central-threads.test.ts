import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { NODE_STATES } from '../../core/graph/node-state.ts';
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
