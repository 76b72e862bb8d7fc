import { describe, expect, it } from 'vitest';
import { CostHistory } from '../../core/graph/cost-history.ts';
import { SimBackend } from '../sim/index.ts';
import { StealingExecutor } from '../stealing/stealing-executor.ts';
import { runGraphDocument } from './run-graph.ts';

describe('runGraphDocument', () => {
  it('runs the document on the executor, policy and error mode it names', async () => {
    const doc = { generator: 'diamond', width: 2, policy: 'critical-path', executor: 'central' };
    const central = await runGraphDocument(doc, { backend: new SimBackend({ workers: 2 }) });
    expect(central.executor).toBe('central');
    expect(central.makespanNanos).toBe(12e6);
    const fifo = await runGraphDocument(
      { ...doc, policy: 'fifo' },
      { backend: new SimBackend({ workers: 2 }) },
    );
    expect(fifo.makespanNanos).toBe(13e6);

    const stealing = await StealingExecutor.start(2);
    try {
      const result = await runGraphDocument(
        {
          generator: 'chain',
          length: 100,
          kernel: 'add',
          executor: 'stealing',
          errorMode: 'continue',
        },
        { stealing },
      );
      expect(result.executor).toBe('stealing');
      expect(result.counts.succeeded).toBe(100);
    } finally {
      await stealing.close();
    }
  }, 30_000);

  it('learns node costs across runs and ranks the next run by them', async () => {
    // No spec costs: the first critical-path run cannot tell the long node; the second can.
    const history = new CostHistory();
    const nodes = [
      { id: 'short-1', cost: 1 },
      { id: 'short-2', cost: 1 },
      { id: 'long', cost: 5 },
      { id: 'tail', cost: 5 },
    ];
    const doc = { nodes, edges: [{ from: 'long', to: 'tail' }], policy: 'critical-path' };
    const blind = {
      nodes: nodes.map(({ id }) => ({ id })),
      edges: doc.edges,
      policy: 'critical-path',
    };
    // Learn from runs whose spec costs are real (the simulator charges them), then rank a spec without costs.
    await runGraphDocument(doc, { backend: new SimBackend({ workers: 1 }), history });
    expect(history.estimate('long')).toBe(5e6);
    const first = await runGraphDocument(blind, { backend: new SimBackend({ workers: 1 }) });
    const ranked = await runGraphDocument(blind, {
      backend: new SimBackend({ workers: 1 }),
      history,
    });
    expect(first.criticalPathNanos).toBe(0);
    expect(ranked.criticalPathNanos).toBe(10e6);
    const firstNode = (r: typeof first) =>
      r.executor === 'central' ? r.spans[0]?.node : undefined;
    expect(firstNode(first)).toBe('short-1');
    expect(firstNode(ranked)).toBe('long');
  });

  it('names the field when the document is invalid or its executor is missing', async () => {
    await expect(runGraphDocument({ generator: 'chain', length: -1 }, {})).rejects.toMatchObject({
      field: 'length',
    });
    await expect(
      runGraphDocument({ generator: 'chain', length: 3, executor: 'stealing' }, {}),
    ).rejects.toMatchObject({
      field: 'executor',
    });
    await expect(
      runGraphDocument(
        { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a' }] },
        { backend: new SimBackend() },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_GRAPH', message: 'edges form a cycle: a → a' });
  });
});
