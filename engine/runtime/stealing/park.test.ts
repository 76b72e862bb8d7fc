import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { PARK_MS } from './park.ts';
import { StealingExecutor } from './stealing-executor.ts';

let executor: StealingExecutor;
beforeAll(async () => {
  executor = await StealingExecutor.start(2);
});
afterAll(async () => {
  await executor.close();
});

const graph = (generator: object) =>
  compileDocument(parseGraphDocument({ kernel: 'add', ...generator }));

describe('StealingExecutor between runs (parked workers)', () => {
  it('runs the same graph back to back, after the workers stopped waiting, and a new graph next', async () => {
    const a = graph({ generator: 'layered-random', levels: 40, width: 40, seed: 3 });
    const b = graph({ generator: 'chain', length: 3000 });
    const check = async (g: typeof a, verify: boolean) => {
      const report = await executor.run(g, { verify });
      expect(report.verification.problems).toEqual([]);
      expect(report.counts.succeeded).toBe(g.nodeCount);
    };
    // Back to back: the workers are parked, each run starts from the park block.
    for (let i = 0; i < 20; i++) await check(a, i % 5 === 0);
    // Long after the last run: the workers went back to their event loops; a message starts it.
    await new Promise((r) => setTimeout(r, 10 * PARK_MS));
    await check(a, true);
    // New memory right after a run: parked workers are released and get the message.
    await check(b, true);
    await check(a, true);
    for (let i = 0; i < 5; i++) await check(b, false);
  }, 60_000);

  it('cancels a run started while parked, and closes while its workers wait', async () => {
    const one = await StealingExecutor.start(2);
    const g = graph({ generator: 'independent', count: 200, cost: 5, kernel: 'spin' });
    await one.run(g);
    const running = one.run(g);
    one.cancel();
    const report = await running;
    expect(report.counts.succeeded + report.counts.cancelled).toBe(g.nodeCount);
    await one.close(); // the workers are parked: close must not wait on them
    await expect(one.run(g)).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  }, 30_000);
});
