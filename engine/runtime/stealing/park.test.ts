import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { PARK_MS } from './park.ts';
import { StealingExecutor } from './stealing-executor.ts';

let executor: StealingExecutor;
beforeAll(async () => {
  executor = await StealingExecutor.start(2, { soloNodes: 0 });
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

  it('hands back a helper that was not needed, or joins it, run after run, exactly', async () => {
    // Back to back, a chain or a single node never wakes the helper (the first worker to finish
    // hands it back); a wide graph wakes it. A small wide graph ends about when the helper wakes,
    // so runs race the hand-back against the helper taking its claim. A lost or doubled hand-back
    // hangs the run (the end counts every worker once); a handed-back helper's statistics must be
    // this run's (nothing executed), not left over from a run it joined.
    const shapes = [
      { g: graph({ generator: 'chain', length: 2000 }), runs: 10 },
      { g: graph({ generator: 'independent', count: 1 }), runs: 10 },
      { g: graph({ generator: 'independent', count: 64 }), runs: 150 },
      { g: graph({ generator: 'layered-random', levels: 30, width: 30, seed: 5 }), runs: 20 },
    ];
    for (const { g, runs } of shapes) {
      for (let i = 0; i < runs; i++) {
        const report = await executor.run(g, { verify: i % 7 === 0 });
        expect(report.verification.problems).toEqual([]);
        expect(report.counts.succeeded).toBe(g.nodeCount);
        expect(report.perWorker.map((w) => w.workerId)).toEqual([0, 1]);
        expect(report.perWorker.reduce((sum, w) => sum + w.executed, 0)).toBe(g.nodeCount);
        for (const w of report.perWorker) {
          expect(w.startNanos).toBeGreaterThanOrEqual(0);
          expect(w.endNanos).toBeGreaterThanOrEqual(w.startNanos);
        }
      }
    }
  }, 60_000);

  it('a helper never asked for the whole of its park wait joins the run late, and the run is exact', async () => {
    // A chain of spinning nodes (≈ 3 × PARK_MS): the helper stays claimed past its wait, takes
    // the claim itself, finds nothing to steal and ends with the run; then the next runs start.
    const g = graph({
      generator: 'chain',
      length: 30,
      kernel: 'spin-us',
      cost: (3 * PARK_MS) / 30,
    });
    for (let i = 0; i < 3; i++) {
      const report = await executor.run(g, { verify: true });
      expect(report.verification.problems).toEqual([]);
      expect(report.counts.succeeded).toBe(g.nodeCount);
    }
    const after = graph({ generator: 'independent', count: 3000 });
    expect((await executor.run(after, { verify: true })).verification.problems).toEqual([]);
  }, 60_000);

  it('cancels a run started while parked, and closes while its workers wait', async () => {
    const one = await StealingExecutor.start(2, { soloNodes: 0 });
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
