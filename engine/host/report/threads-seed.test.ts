// Fault injection on real threads replays from the run's seed: the same seed fails the same
// nodes, another seed others. One worker, so the order of the draws is the order of the nodes.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { runWorkload } from './run-workload.ts';

const flaky = parseWorkload({
  name: 'flaky',
  config: { workers: 1 },
  graph: {
    generator: 'independent',
    count: 40,
    cost: 0.2,
    kernel: 'spin',
    failProbability: 0.3,
    errorMode: 'continue',
  },
});

interface Slice {
  ph: string;
  args?: { split?: number; outcome?: string };
}

async function failedSplits(seed: number): Promise<number[]> {
  const { trace } = await runWorkload(flaky, { backend: 'threads', seed, trace: true });
  const slices = (trace!.traceEvents as Slice[]).filter((e) => e.ph === 'X');
  expect(slices).toHaveLength(40);
  return slices.filter((e) => e.args?.outcome === 'failed').map((e) => e.args!.split!);
}

describe('threads runs draw injected failures from the seed', () => {
  it(
    'the same seed fails the same splits twice; another seed fails others',
    { timeout: 30_000 },
    async () => {
      const first = await failedSplits(7);
      expect(first.length).toBeGreaterThan(0);
      expect(first.length).toBeLessThan(40);
      expect(await failedSplits(7)).toEqual(first);
      expect(await failedSplits(8)).not.toEqual(first);
    },
  );
});
