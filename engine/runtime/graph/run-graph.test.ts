import { describe, expect, it } from 'vitest';
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
    ).rejects.toMatchObject({ code: 'INVALID_GRAPH', message: 'cycle: a → a' });
  });
});
