import { describe, expect, it } from 'vitest';
import { GanttSpans } from './gantt-spans.ts';
import { CATEGORICAL, categoricalIndex } from './palette.ts';

describe('GanttSpans', () => {
  const span = (i: number) => ({
    worker: i % 3,
    startMs: i,
    endMs: i + 0.5,
    job: i,
    task: 0,
    split: i,
    level: i % 5,
    cls: 0,
    outcome: 0,
  });

  it('overwrites the oldest span past capacity and counts what it dropped', () => {
    const r = new GanttSpans(8);
    for (let i = 0; i < 20; i++) r.push(span(i));
    expect(r.size).toBe(8);
    expect(r.overwritten).toBe(12);
    expect(r.start[r.slot(0)]).toBe(12);
    expect(r.start[r.slot(7)]).toBe(19);
    expect(r.extent()).toEqual({ startMs: 12, endMs: 19.5 });
  });

  it('keeps palette slots beside each span and forgets everything on clear', () => {
    const r = new GanttSpans(4);
    for (let i = 0; i < 6; i++) r.push({ ...span(i), cls: i });
    // The newest span (i = 5) sits in slot 3 of 4; its colours moved with it.
    expect(r.clsColor[r.slot(3)]).toBe(5 % CATEGORICAL.length);
    expect(r.jobColor[r.slot(3)]).toBe(categoricalIndex(5));
    r.clear();
    expect([r.size, r.overwritten, r.extent()]).toEqual([0, 0, null]);
    r.push(span(7));
    expect(r.start[r.slot(0)]).toBe(7);
  });
});

describe('GanttSpans batches', () => {
  const at = (startMs: number, endMs: number) => ({
    worker: 0,
    startMs,
    endMs,
    job: 0,
    task: 0,
    split: 0,
    level: 0,
    cls: 0,
    outcome: 0,
  });

  it('skips whole batches that ended before the visible window', () => {
    const r = new GanttSpans(100);
    for (let f = 0; f < 5; f++) {
      r.beginBatch();
      for (let k = 0; k < 10; k++) r.push(at(f * 100 + k, f * 100 + k + 50));
      r.endBatch();
    }
    // Batch 2 ends at 259, so it is the first that may hold a span ending at or after 240.
    expect(r.firstEndingAfter(240)).toBe(20);
    expect(r.firstEndingAfter(0)).toBe(0);
    expect(r.firstEndingAfter(10_000)).toBe(50);
  });

  it('counts from the oldest retained span once the ring has wrapped', () => {
    const r = new GanttSpans(15);
    for (let f = 0; f < 4; f++) {
      r.beginBatch();
      for (let k = 0; k < 10; k++) r.push(at(f * 100 + k, f * 100 + k + 1));
      r.endBatch();
    }
    // 40 pushed, 15 kept (pushed 25..39); batch 3 starts at pushed index 30 → retained index 5.
    expect(r.firstEndingAfter(300)).toBe(5);
    expect(r.firstEndingAfter(0)).toBe(0);
  });
});
