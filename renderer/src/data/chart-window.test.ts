import { describe, expect, it } from 'vitest';
import { chartPoints, historyText, scrollPosition, scrollRange } from './chart-window.ts';

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

  it('says how far back the ring reaches in minutes', () => {
    expect(historyText(252_000)).toBe('history: 4.2 min');
    expect(historyText(600_000)).toBe('history: 10 min');
  });
});
