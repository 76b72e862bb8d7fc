import { describe, expect, it } from 'vitest';
import { laneAt, laneGeometry, spanAt, type GanttLayout } from './gantt-draw.ts';
import { spanProbe } from './gantt-probe.ts';
import { GanttSpans } from './gantt-spans.ts';

const span = (worker: number, startMs: number, endMs: number, job: number) => ({
  worker,
  startMs,
  endMs,
  job,
  task: 0,
  split: 0,
  level: 0,
  cls: job % 3,
  outcome: 0,
});

describe('the Gantt probe a browser spec clicks', () => {
  it('names the widest new span in view at a point the click handler maps back to it', () => {
    const ring = new GanttSpans(64);
    ring.beginBatch();
    ring.push(span(0, 0, 100, 1));
    ring.push(span(1, 200, 900, 2)); // the widest, partly out of view on the right
    ring.push(span(2, 300, 350, 3));
    ring.push(span(3, 5000, 6000, 4)); // out of view
    ring.endBatch();
    const layout: GanttLayout = { width: 572, height: 222, gutter: 72, axis: 22, lanes: 4 };
    const [t0, t1] = [0, 800];
    const p = spanProbe(ring, layout, t0, t1)!;
    expect(p.job).toBe(2);
    expect(p.width).toBeCloseTo(((800 - 200) * 500) / 800);
    // Back from pixels, as gantt-canvas's `jobAt` does.
    const lane = laneAt(laneGeometry(layout), p.y);
    const t = t0 + ((p.x - layout.gutter) * (t1 - t0)) / (layout.width - layout.gutter);
    expect(lane).toBe(1);
    expect(ring.job[spanAt(ring, lane, t, 1)]).toBe(2);
    // Asked for one class (job 3's): its span, however narrow.
    expect(spanProbe(ring, layout, t0, t1, 0)?.job).toBe(3);
  });

  it('says nothing when no span is in view', () => {
    const ring = new GanttSpans(8);
    ring.beginBatch();
    ring.push(span(0, 0, 100, 1));
    ring.endBatch();
    const layout: GanttLayout = { width: 500, height: 100, gutter: 72, axis: 22, lanes: 1 };
    expect(spanProbe(ring, layout, 200, 300)).toBeNull();
  });
});
