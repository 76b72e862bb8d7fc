// One graph document runs on both graph executors with the same meaning: a node's cost is what it
// runs for, under `spin` or `spin-us` or no kernel at all (engine/core/graph/kernels.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { SimBackend } from '../sim/index.ts';
import { StealingExecutor } from '../stealing/stealing-executor.ts';
import { runGraphCentral } from './central-executor.ts';

const MS = 1e6;
/** a → b → c, 20 ms each: the critical path is 60 ms whatever runs it. */
const chain = (kernel?: string) =>
  compileDocument(
    parseGraphDocument({
      generator: 'chain',
      length: 3,
      cost: 20,
      ...(kernel === undefined ? {} : { kernel }),
    }),
  );

let stealing: StealingExecutor;
beforeAll(async () => {
  stealing = await StealingExecutor.start(2);
});
afterAll(async () => {
  await stealing.close();
});

describe('one kernel vocabulary for the central and work-stealing executors', () => {
  for (const kernel of [undefined, 'spin', 'spin-us']) {
    const label = kernel ?? 'no kernel';
    it(`work stealing honours the node cost (${label}): makespan ≥ critical path, efficiency ≤ 1`, async () => {
      const r = await stealing.run(chain(kernel));
      expect(r.counts['succeeded']).toBe(3);
      expect(r.declaredCriticalPathNanos).toBe(60 * MS);
      // Measured on the run's clock: at least the costs, never past the makespan.
      expect(r.criticalPathNanos).toBeGreaterThanOrEqual(60 * MS);
      expect(r.criticalPathNanos).toBeLessThanOrEqual(r.makespanNanos);
      expect(r.makespanNanos).toBeGreaterThanOrEqual(60 * MS);
      expect(r.workNanos).toBeGreaterThanOrEqual(60 * MS);
      expect(r.efficiency).toBeLessThanOrEqual(1);
    });

    it(`the central executor runs the same graph (${label}) for its cost`, async () => {
      const sim = new SimBackend({ workers: 2, seed: 1 });
      const done = runGraphCentral(sim, chain(kernel));
      sim.runUntilIdle();
      const r = await done;
      expect(r.counts['succeeded']).toBe(3);
      expect(r.makespanNanos).toBe(60 * MS);
      expect(r.efficiency).toBe(1);
    });
  }
});
