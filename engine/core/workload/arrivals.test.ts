import { describe, expect, it } from 'vitest';
import { arrivals } from './arrivals.ts';
import { drawJob } from './jobs.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import { parseWorkload } from '../../../shared/workload.ts';

function all(c: { next(): number | null }): number[] {
  const out: number[] = [];
  for (let t = c.next(); t !== null; t = c.next()) out.push(t);
  return out;
}

describe('arrival processes', () => {
  it('once puts every job at the same time; periodic spaces them exactly', () => {
    const rng = createRng(1);
    expect(all(arrivals(rng, { kind: 'once', atMs: 5, count: 3 }))).toEqual([5e6, 5e6, 5e6]);
    expect(all(arrivals(rng, { kind: 'periodic', everyMs: 10, startMs: 1, count: 3 }))).toEqual([
      1e6, 11e6, 21e6,
    ]);
  });

  it('periodic without a count stops at the end of the run; scale shrinks every time', () => {
    const rng = createRng(1);
    expect(all(arrivals(rng, { kind: 'periodic', everyMs: 10, startMs: 0 }, 1, 35e6))).toHaveLength(
      4,
    );
    expect(
      all(arrivals(rng, { kind: 'periodic', everyMs: 10, startMs: 0, count: 2 }, 0.5)),
    ).toEqual([0, 5e6]);
  });

  it('Poisson arrivals have the requested mean rate and are seeded', () => {
    const times = all(
      arrivals(createRng(4), { kind: 'poisson', rate: 50, startMs: 0, count: 5000 }),
    );
    const rate = times.length / (times.at(-1)! / 1e9);
    expect(rate / 50).toBeCloseTo(1, 1);
    expect(
      all(arrivals(createRng(4), { kind: 'poisson', rate: 50, startMs: 0, count: 10 })),
    ).toEqual(times.slice(0, 10));
  });

  it('a Poisson window of D holds rate × D jobs on average: the first comes a gap after the start', () => {
    // Before: the first arrival was at startMs on every seed, one job over the mean in every
    // window (3.98 jobs on average at 0.05/s over 60 s, not 3).
    let jobs = 0;
    const firsts = new Set<number>();
    for (let seed = 1; seed <= 2000; seed++) {
      const times = all(
        arrivals(createRng(seed), { kind: 'poisson', rate: 0.05, startMs: 30_000 }, 1, 90e9),
      );
      jobs += times.length;
      if (times.length > 0) firsts.add(times[0]!);
      expect(times.every((t) => t > 30e9)).toBe(true);
    }
    expect(jobs / 2000).toBeGreaterThan(2.8);
    expect(jobs / 2000).toBeLessThan(3.2);
    expect(firsts.size).toBeGreaterThan(1800); // about 5 % of windows hold none (e^−3)
  });

  it('jobs have the class shape: tasks × (leaf + intermediate) splits, priority and retries', () => {
    const w = parseWorkload({
      classes: [
        {
          name: 'q',
          arrival: { kind: 'once' },
          tasks: 2,
          splits: { leaf: 3, intermediate: 1 },
          work: { totalMs: 4, perCallMs: 1 },
          basePriority: 7,
          retries: 2,
        },
      ],
    });
    const job = drawJob(createRng(1), w.classes![0]!, 0.5);
    expect(job.tasks).toHaveLength(2);
    expect(job.tasks[0]!.splits.map((s) => s.kind)).toEqual([
      'leaf',
      'leaf',
      'leaf',
      'intermediate',
    ]);
    expect(job.tasks[0]!.splits[0]!.work).toEqual({
      kernel: 'spin',
      totalNanos: 2e6,
      perCallNanos: 5e5,
    });
    expect(job).toMatchObject({ class: 'q', basePriority: 7, retries: 2 });
  });
});
