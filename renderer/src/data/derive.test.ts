import { describe, expect, it } from 'vitest';
import { chartMarks, depthSeries, selectionRates } from './derive.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

/** 3 s of mlfq, a switch to fifo at 3 s, then 1 s of fifo (10 Hz). */
function switched(): Telemetry {
  const t = new Telemetry();
  for (let f = 1; f <= 40; f++) {
    const fifo = f > 30;
    const frame = syntheticFrame({
      seq: f,
      timeMs: f * 100,
      depth: fifo ? [7] : [1, 2, 3, 4, 5],
      ...(fifo ? { labels: ['fifo'] } : {}),
      config: { policy: fifo ? 'fifo' : 'mlfq' },
    });
    // Cumulative selections: mlfq's level 0 had many; fifo's counter starts again from 0.
    frame.levels.forEach((l) => (l.selections = fifo ? (f - 30) * 5 : f * 50));
    if (f === 31) frame.events = [{ timeNanos: 3000e6, kind: 'policy', detail: 'mlfq → fifo' }];
    t.ingestFrame(frame);
  }
  return t;
}

describe('a policy switch does not rewrite chart history', () => {
  it('each depth point keeps the levels it was taken under', () => {
    const { rows, series } = depthSeries(switched().points.toArray());
    expect(series).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'fifo']);
    expect(rows[0]).toMatchObject({ L0: 1, L4: 5 });
    expect(rows[0]!['fifo']).toBeUndefined();
    expect(rows.at(-1)).toMatchObject({ fifo: 7 });
    expect(rows.at(-1)!['L0']).toBeUndefined();
  });

  it('selections after a switch are the new policy’s rates, not blank or negative', () => {
    const rows = selectionRates(switched().points.tail(50));
    // 9 frames × 5 selections over 0.9 s since the switch.
    expect(rows).toEqual([{ level: 'fifo', rate: expect.closeTo(50, 6) }]);
  });

  it('the switch is marked on the time charts, the whole change shown on hover', () => {
    const t = switched();
    expect(chartMarks(t.markers.toArray(), 0.1, 4)).toEqual([
      { t: 3, label: 'mlfq → fifo', detail: 'policy: mlfq → fifo' },
    ]);
    expect(chartMarks(t.markers.toArray(), 3.5, 4)).toEqual([]);
  });
});
