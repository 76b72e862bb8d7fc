import { describe, expect, it } from 'vitest';
import { MIXED, mergeLane } from './span-merge.ts';

describe('sub-pixel span merging', () => {
  it('merges a thousand touching sub-pixel spans of one job into one rectangle', () => {
    const spans = Array.from({ length: 1000 }, (_, i) => ({ startMs: i, endMs: i + 1, color: 7 }));
    // 1000 ms across 10 px: every span is 0.01 px wide.
    const rects = mergeLane(spans, 0, 0.01);
    expect(rects).toHaveLength(1);
    expect(rects[0]).toMatchObject({ x: 0, color: 7 });
    expect(rects[0]!.w).toBeCloseTo(10);
  });

  it('marks a merged run of different jobs as mixed', () => {
    const spans = [0, 1, 2, 3].map((i) => ({ startMs: i, endMs: i + 1, color: i }));
    const rects = mergeLane(spans, 0, 0.1);
    expect(rects).toHaveLength(1);
    expect(rects[0]!.color).toBe(MIXED);
    expect(rects[0]!.w).toBe(1); // at least one pixel so dense activity stays visible
  });

  it('draws wide spans as themselves with their own colour', () => {
    const spans = [
      { startMs: 0, endMs: 10, color: 1 },
      { startMs: 10, endMs: 20, color: 2 },
    ];
    expect(mergeLane(spans, 0, 1)).toEqual([
      { x: 0, w: 10, color: 1 },
      { x: 10, w: 10, color: 2 },
    ]);
  });

  it('does not bridge a visible gap between sub-pixel spans', () => {
    const spans = [
      { startMs: 0, endMs: 0.1, color: 1 },
      { startMs: 50, endMs: 50.1, color: 1 },
    ];
    const rects = mergeLane(spans, 0, 1);
    expect(rects.map((r) => r.x)).toEqual([0, 50]);
  });

  it('never merges a sub-pixel span into a wide neighbour, so wide spans keep their colour', () => {
    const spans = [
      { startMs: 0, endMs: 10, color: 1 },
      { startMs: 10, endMs: 10.2, color: 2 },
      { startMs: 10.2, endMs: 10.4, color: 2 },
    ];
    const rects = mergeLane(spans, 0, 1);
    expect(rects[0]).toEqual({ x: 0, w: 10, color: 1 });
    expect(rects).toHaveLength(2);
    expect(rects[1]!.color).toBe(2);
  });
});
