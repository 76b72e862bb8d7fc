import { describe, expect, it } from 'vitest';
import { chartPoints, historyText, lastSpan, scrollPosition, scrollRange } from './chart-window.ts';

describe('scrolling the charts back through the history ring', () => {
  it('position 0 starts at the oldest point held, 1 ends at the newest, keeping the width', () => {
    expect(scrollRange(0, 60_000, 10_000, 310_000)).toEqual({ fromMs: 10_000, toMs: 70_000 });
    expect(scrollRange(1, 60_000, 10_000, 310_000)).toEqual({ fromMs: 250_000, toMs: 310_000 });
    expect(scrollRange(0.5, 60_000, 10_000, 310_000)).toEqual({ fromMs: 130_000, toMs: 190_000 });
    // Positions outside 0…1 stay inside what is held.
    expect(scrollRange(-3, 60_000, 10_000, 310_000).fromMs).toBe(10_000);
  });

  it('with less held than the width, the range is all that is held', () => {
    expect(scrollRange(0.3, 60_000, 5000, 25_000)).toEqual({ fromMs: 5000, toMs: 25_000 });
  });

  it('a range’s position is the inverse; following live sits at the end', () => {
    const r = scrollRange(0.25, 30_000, 0, 600_000);
    expect(scrollPosition(r, 0, 600_000)).toBeCloseTo(0.25);
    expect(scrollPosition(null, 0, 600_000)).toBe(1);
  });

  it('a range at the start draws the oldest points, which the live window leaves out', () => {
    // 10 min at 10 Hz: the live window is the last 60 s.
    const all = Array.from({ length: 6000 }, (_, k) => ({ tMs: k * 100 }));
    const live = chartPoints(all, null);
    expect(live[0]!.tMs).toBe(540_000);
    const back = chartPoints(all, scrollRange(0, 60_000, 0, all.at(-1)!.tMs));
    expect(back[0]!.tMs).toBe(0);
    expect(back.at(-1)!.tMs).toBeLessThanOrEqual(75_000);
  });

  it('the live window is 60 s of engine time at any simulator speed; a rate span keeps one point before', () => {
    // At 10× a frame is 1 s of engine time apart: the last 600 frames were 600 s under a
    // "last 60 s" title.
    const fast = Array.from({ length: 1000 }, (_, k) => ({ tMs: k * 1000 }));
    const live = chartPoints(fast, null);
    expect(live.at(-1)!.tMs - live[0]!.tMs).toBeLessThan(60_000);
    expect(live).toHaveLength(60);
    // At 100× frames are 10 s apart: the last 5 s hold one frame, so the one before comes too.
    const faster = Array.from({ length: 10 }, (_, k) => ({ tMs: k * 10_000 }));
    expect(lastSpan(faster, 5_000).map((p) => p.tMs)).toEqual([80_000, 90_000]);
    expect(lastSpan(fast, 5_000).map((p) => p.tMs)).toEqual([
      994_000, 995_000, 996_000, 997_000, 998_000, 999_000,
    ]);
    expect(lastSpan([], 5_000)).toEqual([]);
    // Frames further apart than the window: still two points, so a line is drawn.
    const sparse = [{ tMs: 0 }, { tMs: 100_000 }, { tMs: 200_000 }];
    expect(chartPoints(sparse, null).map((p) => p.tMs)).toEqual([100_000, 200_000]);
  });

  it('says how far back the ring reaches in minutes', () => {
    expect(historyText(252_000)).toBe('history: 4.2 min');
    expect(historyText(600_000)).toBe('history: 10 min');
  });
});
