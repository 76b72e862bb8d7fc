import { describe, expect, it } from 'vitest';
import { createRng, fork, uniformInt } from './rng.ts';

describe('seeded rng', () => {
  it('repeats the same stream for the same seed and differs for another seed', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const rng = createRng(1);
    const buckets = new Array<number>(10).fill(0);
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = rng.next();
      if (x < 0 || x >= 1) outside++;
      else buckets[Math.floor(x * 10)]!++;
    }
    expect(outside).toBe(0);
    for (const n of buckets) expect(Math.abs(n - 10_000)).toBeLessThan(500);
  });

  it('draws integers inside [origin, bound) and forks independent streams', () => {
    const rng = createRng(3);
    for (let i = 0; i < 1000; i++) {
      const v = uniformInt(rng, 5, 8);
      expect(v >= 5 && v < 8).toBe(true);
    }
    const f = fork(createRng(3));
    expect(f.next()).not.toBe(createRng(3).next());
  });
});
