import { describe, expect, it } from 'vitest';
import { actualShares, targetShares } from './target-share.ts';

describe('target share of the multilevel queue', () => {
  it('gives each busy level m times the next one', () => {
    const s = targetShares(2, [true, true, true, true, true]);
    expect(s.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    for (let l = 0; l < 4; l++) expect(s[l]! / s[l + 1]!).toBeCloseTo(2);
    expect(s[0]).toBeCloseTo(16 / 31);
  });

  it('shares only among busy levels', () => {
    const s = targetShares(3, [true, false, true, false, false]);
    expect(s[1]).toBe(0);
    expect(s[0]).toBeCloseTo(9 / 10);
    expect(s[2]).toBeCloseTo(1 / 10);
  });

  it('a larger multiplier raises level 0 share', () => {
    const busy = [true, true, true, false, false];
    expect(targetShares(4, busy)[0]!).toBeGreaterThan(targetShares(2, busy)[0]!);
  });

  it('is all zero when no level is busy', () => {
    expect(targetShares(2, [false, false])).toEqual([0, 0]);
  });

  it('actual shares normalise deltas and ignore negative ones', () => {
    expect(actualShares([3, 1, 0])).toEqual([0.75, 0.25, 0]);
    expect(actualShares([0, 0])).toEqual([0, 0]);
    expect(actualShares([2, -1])).toEqual([1, 0]);
  });
});
