import { describe, expect, it } from 'vitest';
import { recordingContext, TEST_THEME } from './canvas-testing.ts';
import type { WorkerRow } from '../../../shared/protocol.ts';
import { drawGantt, type GanttLayout } from './gantt-draw.ts';
import { inFlightQuanta, laneLayout } from './gantt-lanes.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

function draw(t: Telemetry, layout: Partial<GanttLayout>, t0: number, t1: number) {
  return drawGantt(
    recordingContext().ctx,
    t.spans,
    t.markers.toArray(),
    { width: 800, height: 200, gutter: 72, axis: 22, lanes: 1, ...layout },
    t0,
    t1,
    'job',
    TEST_THEME,
  );
}

const worker = (id: number, state: WorkerRow['state'], sinceMs: number | null): WorkerRow => ({
  id,
  state,
  splitId: sinceMs === null ? null : 7,
  jobId: sinceMs === null ? null : 3,
  sinceNanos: sinceMs === null ? null : sinceMs * 1e6,
});

describe('a quantum in flight', () => {
  it('runs from the worker’s quantum start up to now, only for workers running one', () => {
    const q = inFlightQuanta(
      [worker(0, 'running', 1000), worker(1, 'idle', null), worker(2, 'retiring', 1900)],
      2000,
    );
    expect(q).toEqual([
      { lane: 0, startMs: 1000, endMs: 2000, job: 3 },
      { lane: 2, startMs: 1900, endMs: 2000, job: 3 },
    ]);
  });

  it('is drawn on the Gantt while no finished span exists on its lane', () => {
    const t = new Telemetry();
    // A 1 s quantum started at 1 s; at 1.6 s nothing has finished on worker 0.
    t.ingestFrame(
      syntheticFrame({ seq: 1, timeMs: 1600, workerRows: [worker(0, 'running', 1000)] }),
    );
    const inFlight = inFlightQuanta(t.latest!.workers, t.nowMs);
    const r = draw(t, { lanes: 1, inFlight }, 0, 2000);
    expect(r.visible).toBe(0);
    expect(r.inFlight).toBe(1);
  });
});

describe('resizing the pool keeps history', () => {
  function resized(): Telemetry {
    const t = new Telemetry();
    // Four workers ran until 5 s; then `workers: 4 → 1`; worker 3 finished its quantum at 5.2 s.
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 5000,
        spans: [0, 1, 2, 3].map((w) => ({
          worker: w,
          startMs: 4000,
          endMs: 5000,
          job: w,
          level: 0,
        })),
      }),
    );
    const f = syntheticFrame({
      seq: 2,
      timeMs: 6000,
      workers: 1,
      spans: [
        { worker: 3, startMs: 5000, endMs: 5200, job: 9, level: 0 },
        { worker: 0, startMs: 5000, endMs: 6000, job: 1, level: 0 },
      ],
    });
    f.events = [{ timeNanos: 5000e6, kind: 'config', detail: 'workers: 4 → 1' }];
    t.ingestFrame(f);
    return t;
  }

  it('keeps lanes of workers that ran inside the window, retired from when they left', () => {
    const t = resized();
    const lanes = laneLayout(1, t.laneEndMs, 0, t.markers.toArray());
    expect(lanes.lanes).toBe(4);
    expect(lanes.retiredFromMs).toEqual([null, 5000, 5000, 5200]);
    // Once the window has moved past their last spans, the lanes go.
    expect(laneLayout(1, t.laneEndMs, 5500, t.markers.toArray()).lanes).toBe(1);
  });

  it('draws the retired lanes’ spans', () => {
    const t = resized();
    const lanes = laneLayout(1, t.laneEndMs, 0, t.markers.toArray());
    const r = draw(t, { lanes: lanes.lanes, retiredFromMs: lanes.retiredFromMs }, 0, 6000);
    expect(r.visibleByLane).toEqual([2, 1, 1, 2]);
    expect(r.retired).toBe(3);
  });
});
