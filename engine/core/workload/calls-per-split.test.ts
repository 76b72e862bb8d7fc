// A split makes at most MAX_CALLS_PER_SPLIT calls, each a quantum of its own: a `perCallMs` of 0
// (1 ns) made a 3 ms split 3,000,000 quanta and a 1 s one 10^9, a run that looked hung.
import { describe, expect, it } from 'vitest';
import { splitWorkSchema } from '../../../shared/job.ts';
import { MAX_CALLS_PER_SPLIT } from '../../../shared/limits.ts';
import { parseWorkload } from '../../../shared/workload.ts';
import { runWorkload } from '../../host/report/run-workload.ts';

const tiny = (work: Record<string, unknown>) =>
  parseWorkload({
    config: { workers: 1 },
    classes: [{ name: 'a', arrival: { kind: 'once' }, splits: { intermediate: 1 }, work }],
  });

describe('calls per split', () => {
  it('a workload whose per-call time is 0 runs its split in at most MAX_CALLS_PER_SPLIT quanta', async () => {
    for (const work of [
      { totalMs: 3, perCallMs: 0 },
      { generator: { simple: { totalMs: 3, perCallMs: 1e-9 } } },
    ]) {
      const { report } = await runWorkload(tiny(work));
      expect(report.classes['a']).toMatchObject({ jobs: 1, succeeded: 1 });
      expect(report.counters.quanta).toBeLessThanOrEqual(MAX_CALLS_PER_SPLIT);
      expect(report.counters.quanta).toBeGreaterThan(MAX_CALLS_PER_SPLIT / 2);
    }
  }, 60_000);

  it('a job a client submits is refused past it, naming perCallNanos and the least it may be', () => {
    const r = splitWorkSchema.safeParse({ kernel: 'spin', totalNanos: 1e9, perCallNanos: 1 });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['perCallNanos']);
    expect(r.error!.issues[0]!.message).toBe(
      'must be >= totalNanos / 100000 (10000): a split makes at most 100000 calls, this one 1000000000',
    );
    expect(
      splitWorkSchema.safeParse({ kernel: 'spin', totalNanos: 1e9, perCallNanos: 10_000 }).success,
    ).toBe(true);
  });
});
