import { describe, expect, it } from 'vitest';
import { formatMs, GanttViewport, MIN_WINDOW_MS, tickStep } from './gantt-viewport.ts';

describe('Gantt viewport', () => {
  it('zooming keeps the time under the anchor fixed', () => {
    const v = new GanttViewport(10_000);
    v.endMs = 50_000;
    // Anchor in the middle: 45 s stays in the middle.
    v.zoom(0.5, 0.5);
    expect(v.windowMs).toBe(5000);
    expect(v.endMs - v.windowMs / 2).toBeCloseTo(45_000);
  });

  it('never zooms below the minimum window', () => {
    const v = new GanttViewport(1);
    for (let i = 0; i < 50; i++) v.zoom(0.1);
    expect(v.windowMs).toBe(MIN_WINDOW_MS);
  });

  it('picks round tick steps and formats times at every scale', () => {
    expect(tickStep(10_000)).toBe(2000);
    expect(tickStep(1)).toBe(0.2);
    expect(formatMs(0)).toBe('0');
    expect(formatMs(0.25)).toBe('250 µs');
    expect(formatMs(12.5)).toBe('12.5 ms');
    expect(formatMs(2500)).toBe('2.5 s');
    expect(formatMs(132_000)).toBe('2:12');
    expect(formatMs(132_500)).toBe('2:12.5');
    expect(formatMs(61_000)).toBe('1:01');
  });
});
