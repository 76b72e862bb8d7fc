import { describe, expect, it } from 'vitest';
import { sampleNanos } from './distributions.ts';
import { createRng } from '../../../shared/lib/rng.ts';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('time distributions', () => {
  it('fixed is exact, uniform stays in range, exponential has the requested mean', () => {
    const rng = createRng(1);
    expect(sampleNanos(rng, { kind: 'fixed', ms: 2.5 })).toBe(2_500_000);
    const us = Array.from({ length: 2000 }, () =>
      sampleNanos(rng, { kind: 'uniform', minMs: 1, maxMs: 3 }),
    );
    expect(Math.min(...us)).toBeGreaterThanOrEqual(1e6);
    expect(Math.max(...us)).toBeLessThanOrEqual(3e6);
    const es = Array.from({ length: 20_000 }, () =>
      sampleNanos(rng, { kind: 'exponential', meanMs: 10 }),
    );
    expect(mean(es) / 1e7).toBeCloseTo(1, 1);
    expect(Math.min(...es)).toBeGreaterThanOrEqual(0);
  });

  it("Trino's named distributions honour the u range", () => {
    const rng = createRng(2);
    for (let i = 0; i < 500; i++) {
      const v = sampleNanos(rng, { kind: 'trino', name: 'leaf-total', from: 0.998, to: 1 });
      expect(v).toBeGreaterThanOrEqual(5 * 60e9);
    }
  });
});
