import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BucketHistogram } from './buckets.ts';
import { Jain, Summary } from './summary-stats.ts';

describe('report statistics', () => {
  it('percentiles, max and mean of recorded ns come back in ms', () => {
    const s = new Summary();
    for (let i = 1; i <= 100; i++) s.record(i * 1e6);
    const p = s.toMs();
    expect(p.p50).toBeCloseTo(50, 0);
    expect(p.p95).toBeCloseTo(95, 0);
    expect(p.max).toBe(100);
    expect(p.mean).toBe(50.5);
    expect(new Summary().toMs()).toEqual({ p50: 0, p95: 0, p99: 0, max: 0, mean: 0 });
  });

  it("Jain's index is 1 for equal shares and 1/n when one takes all", () => {
    const eq = new Jain();
    [3, 3, 3].forEach((x) => eq.add(x));
    expect(eq.value).toBe(1);
    const one = new Jain();
    [4, 0, 0, 0].forEach((x) => one.add(x));
    expect(one.value).toBe(0.25);
  });

  it('Trino buckets keep values past one day instead of dropping them', () => {
    const h = new BucketHistogram();
    [0, 0.5e9, 5e9, 30e9, 100e9, 1000e9, 7200e9, 200_000e9].forEach((x) => h.record(x));
    expect(h.counts).toEqual([2, 1, 1, 1, 1, 1, 1]);
    expect(h.total).toBe(8);
  });
});

describe('Summary percentiles', () => {
  it('are never below the true value and at most 0.8% (or 1 µs) above it, at any magnitude', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e13, noNaN: true }), { minLength: 1, maxLength: 400 }),
        (values) => {
          const s = new Summary();
          for (const v of values) s.record(v);
          const sorted = [...values].sort((a, b) => a - b);
          const p = s.toMs();
          for (const [q, got] of [
            [50, p.p50],
            [95, p.p95],
            [99, p.p99],
          ] as const) {
            const exact = sorted[Math.max(1, Math.ceil((q / 100) * values.length)) - 1]! / 1e6;
            expect(got).toBeGreaterThanOrEqual(Math.floor(exact * 1000) / 1000 - 0.001);
            expect(got).toBeLessThanOrEqual(exact * 1.008 + 0.002);
          }
          expect(p.max).toBe(Math.round(sorted.at(-1)! / 1e3) / 1e3);
        },
      ),
    );
  });
});
