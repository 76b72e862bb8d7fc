import { describe, expect, it } from 'vitest';
import { actualShares, chargedShareWindow, targetShares, type SharePoint } from './target-share.ts';

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

function point(
  tMs: number,
  charged: number[],
  depth = [1, 1, 1, 0, 0],
  policy = 'mlfq',
): SharePoint {
  return { tMs, policy, labels: ['L0', 'L1', 'L2', 'L3', 'L4'], depth, chargedMs: charged };
}

describe('charged share over a window', () => {
  it('is the difference of the cumulative charged time between the window ends', () => {
    const points = [
      point(0, [0, 0, 0, 0, 0]),
      point(4000, [900, 100, 0, 0, 0]), // outside a 5 s window ending at 10 s
      point(5000, [1000, 100, 0, 0, 0]),
      point(10_000, [1600, 300, 200, 0, 0]),
    ];
    const w = chargedShareWindow(points, 5000, 2, true)!;
    expect(w.coveredMs).toBe(5000);
    expect(w.rows.map((r) => r.charged)).toEqual([0.6, 0.2, 0.2, 0, 0]);
    // Which frames the figures come from, for whoever checks them against the frames.
    const seqd = points.map((p, i) => ({ ...p, seq: 10 + i }));
    expect(chargedShareWindow(seqd, 5000, 2, true)).toMatchObject({ fromSeq: 12, toSeq: 13 });
  });

  it('targets only the levels that were non-empty in the window', () => {
    const points = [
      point(0, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
      point(1000, [500, 0, 0, 0, 0], [3, 0, 0, 2, 0]),
      point(2000, [1000, 0, 0, 0, 0], [3, 0, 0, 2, 0]),
    ];
    const w = chargedShareWindow(points, 5000, 2, true)!;
    expect(w.rows.map((r) => r.busy)).toEqual([true, false, false, true, false]);
    expect(w.rows[0]!.target).toBeCloseTo(8 / 9);
    expect(w.rows[3]!.target).toBeCloseTo(1 / 9);
  });

  it('never reaches back across a policy switch or a counter reset', () => {
    const switched = [
      point(0, [0, 0, 0, 0, 0], [1, 0, 0, 0, 0], 'priority'),
      point(1000, [900, 0, 0, 0, 0], [1, 0, 0, 0, 0], 'priority'),
      point(2000, [900, 0, 0, 0, 0]),
      point(3000, [1000, 100, 0, 0, 0]),
    ];
    const w = chargedShareWindow(switched, 30_000, 2, true)!;
    expect(w.coveredMs).toBe(1000);
    expect(w.rows[0]!.charged).toBeCloseTo(0.5);
    const reset = [
      point(0, [5000, 0, 0, 0, 0]),
      point(1000, [0, 0, 0, 0, 0]),
      point(2000, [0, 50, 0, 0, 0]),
    ];
    expect(chargedShareWindow(reset, 30_000, 2, true)!.rows[1]!.charged).toBe(1);
  });

  it('has no target for a policy that promises none, and says when charged time is missing', () => {
    const points = [point(0, [0, 0, 0, 0, 0]), point(1000, [10, 0, 0, 0, 0])];
    expect(chargedShareWindow(points, 5000, 2, false)!.rows[0]!.target).toBeNull();
    const old = points.map((p) => ({ ...p, chargedMs: null }));
    const w = chargedShareWindow(old, 5000, 2, true)!;
    expect(w.reported).toBe(false);
    expect(w.rows[0]!.charged).toBeNull();
  });

  it('counts the aging boosts each band got within the window (PRIO)', () => {
    const bands = ['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100'];
    const prio = (tMs: number, boosts: number[] | null): SharePoint => ({
      tMs,
      policy: 'priority',
      labels: bands,
      depth: [0, 0, 0, 1, 4],
      chargedMs: [tMs, 0, 0, 0, 0],
      agingBoosts: boosts,
    });
    const points = [
      prio(0, [0, 0, 0, 2, 10]),
      prio(4000, [0, 0, 0, 3, 12]),
      prio(9000, [0, 0, 0, 7, 30]),
    ];
    const w = chargedShareWindow(points, 5000, 2, false)!;
    expect(w.rows.map((r) => r.boosts)).toEqual([0, 0, 0, 4, 18]);
    // A host that does not count boosts: none shown, rather than zeros.
    const unreported = points.map((p) => ({ ...p, agingBoosts: null }));
    expect(chargedShareWindow(unreported, 5000, 2, false)!.rows[4]!.boosts).toBeNull();
  });
});
