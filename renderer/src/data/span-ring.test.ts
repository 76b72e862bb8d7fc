import { describe, expect, it } from 'vitest';
import { SpanRing } from './span-ring.ts';

describe('SpanRing', () => {
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
    const r = new SpanRing(8);
    for (let i = 0; i < 20; i++) r.push(span(i));
    expect(r.size).toBe(8);
    expect(r.overwritten).toBe(12);
    expect(r.start[r.slot(0)]).toBe(12);
    expect(r.start[r.slot(7)]).toBe(19);
    expect(r.extent()).toEqual({ startMs: 12, endMs: 19.5 });
  });

  it('bumps its version on every change so canvases can skip redraws', () => {
    const r = new SpanRing(4);
    const v = r.version;
    r.push(span(1));
    expect(r.version).toBeGreaterThan(v);
    r.clear();
    expect(r.size).toBe(0);
    expect(r.extent()).toBeNull();
  });
});

describe('SpanRing batches', () => {
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
    const r = new SpanRing(100);
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
    const r = new SpanRing(15);
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
