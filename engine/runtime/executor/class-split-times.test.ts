import { describe, expect, it } from 'vitest';
import { createRng } from '../../../shared/lib/rng.ts';
import { ClassSplitTimes, CLASS_TIME_MIN_SAMPLES, summarise } from './class-split-times.ts';
import { SLOW_SPLIT_FLOOR_MS, slowBound } from './warnings.ts';

const MS = 1e6;

describe('the slow-split bound from a class’s recent split times', () => {
  it('has no statistics below the minimum sample count', () => {
    const t = new ClassSplitTimes();
    for (let i = 0; i < CLASS_TIME_MIN_SAMPLES - 1; i++) t.record(0, 5 * MS);
    expect(t.stats(0)).toBeNull();
    t.record(0, 5 * MS);
    expect(t.stats(0)).toEqual({ median: 5 * MS, p99: 5 * MS, samples: CLASS_TIME_MIN_SAMPLES });
  });

  it('a heavy-tailed class: its own longest split is not slow, one far past its tail is', () => {
    const t = new ClassSplitTimes();
    const rng = createRng(3);
    let longest = 0;
    for (let i = 0; i < 256; i++) {
      // Pareto, shape 1.2, scale 20 ms: most splits short, a few a hundred times the median.
      const ns = (20 * MS) / Math.pow(1 - rng.next(), 1 / 1.2);
      longest = Math.max(longest, ns);
      t.record(0, ns);
    }
    const s = t.stats(0)!;
    expect(longest).toBeGreaterThan(10 * s.median);
    const bound = slowBound(s, 50 * MS);
    expect(bound).toBeGreaterThan(longest);
    expect(bound).toBeGreaterThanOrEqual(2 * s.p99);
  });

  it('millisecond splits: the floor, not ten medians, is the bound', () => {
    const t = new ClassSplitTimes();
    for (let i = 0; i < 64; i++) t.record(0, 2 * MS);
    expect(slowBound(t.stats(0)!, 10 * MS)).toBe(SLOW_SPLIT_FLOOR_MS * MS);
  });

  it('a split is judged against the others of its class, counting their live runs', () => {
    const t = new ClassSplitTimes();
    for (let i = 0; i < 40; i++) t.record(0, 5 * MS);
    // The long split's own run is one of the live samples; left out, the others' tail is 5 ms.
    const sorted = t.sortedWith(0, [5000 * MS])!;
    expect(summarise(sorted).p99).toBe(5000 * MS);
    const others = summarise(sorted, 5000 * MS);
    expect(others).toEqual({ median: 5 * MS, p99: 5 * MS, samples: 40 });
    expect(5000 * MS).toBeGreaterThan(slowBound(others, 10 * MS));
    // Many long splits running at once are the class's norm, not one slow split.
    const busy = t.sortedWith(
      0,
      Array.from({ length: 40 }, () => 5000 * MS),
    )!;
    expect(5000 * MS).toBeLessThan(slowBound(summarise(busy, 5000 * MS), 10 * MS));
  });
});
