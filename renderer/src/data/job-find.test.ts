import { describe, expect, it } from 'vitest';
import type { JobRow, SplitDetail } from '../../../shared/protocol.ts';
import { recordingContext, TEST_THEME } from './canvas-testing.ts';
import { drawGantt } from './gantt-draw.ts';
import { changeText, jobAxis, nextSort, segmentText, sortJobs, splitBars } from './job-find.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

const MS = 1e6;
const row = (id: number, cls: string, state: JobRow['state'], scheduledMs: number): JobRow => ({
  id,
  class: cls,
  state,
  basePriority: 50,
  splits: 1,
  splitsDone: 0,
  scheduledNanos: scheduledMs * MS,
  submitNanos: 0,
  endNanos: null,
});

describe('sorting the job table', () => {
  const rows = [
    row(3, 'scan', 'running', 5),
    row(1, 'etl', 'failed', 50),
    row(2, 'scan', 'succeeded', 1),
  ];

  it('sorts by a column, ties by id, and a third click goes back to the engine’s order', () => {
    const byScheduled = nextSort(null, 'scheduled');
    expect(sortJobs(rows, byScheduled).map((r) => r.id)).toEqual([2, 3, 1]);
    const down = nextSort(byScheduled, 'scheduled');
    expect(sortJobs(rows, down).map((r) => r.id)).toEqual([1, 3, 2]);
    expect(nextSort(down, 'scheduled')).toBeNull();
    expect(sortJobs(rows, null).map((r) => r.id)).toEqual([3, 1, 2]);
    expect(sortJobs(rows, { key: 'class', descending: false }).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(nextSort(down, 'id')).toEqual({ key: 'id', descending: false });
  });
});

describe('a split’s timeline', () => {
  const split: SplitDetail = {
    splitId: 7,
    taskId: 1,
    state: 'running',
    segments: [
      { kind: 'waiting', startNanos: 0, endNanos: 10 * MS },
      {
        kind: 'running',
        startNanos: 10 * MS,
        endNanos: 30 * MS,
        worker: 2,
        level: 1,
        outcome: 'blocked',
      },
      { kind: 'blocked', startNanos: 30 * MS, endNanos: 60 * MS },
      {
        kind: 'running',
        startNanos: 60 * MS,
        endNanos: null,
        worker: 0,
        level: 2,
        outcome: 'in progress',
      },
    ],
    segmentsCut: 0,
    waitNanos: 10 * MS,
    scheduledNanos: 20 * MS,
    quanta: 1,
    retries: 0,
  };
  const job = { ...row(9, 'scan', 'running', 20), submitNanos: 0 };

  it('places each stretch on the job’s axis, an open one up to now', () => {
    const axis = jobAxis(job, [split], 100 * MS);
    expect(axis).toEqual([0, 100 * MS]);
    const bars = splitBars(split, axis, 100 * MS, 'mlfq');
    expect(bars.map((b) => [b.kind, b.left, b.width, b.level])).toEqual([
      ['waiting', 0, 10, null],
      ['running', 10, 20, 1],
      ['blocked', 30, 30, null],
      ['running', 60, 40, 2],
    ]);
  });

  it('says what each stretch was, with level or band, outcome and code', () => {
    const [, ran, , now] = split.segments;
    expect(segmentText(ran!, 100 * MS, 'mlfq')).toBe('running 20.0 ms on worker 2 at L1 → blocked');
    expect(segmentText(ran!, 100 * MS, 'priority')).toBe(
      'running 20.0 ms on worker 2 at p20-39 → blocked',
    );
    expect(segmentText(now!, 100 * MS, 'mlfq')).toBe(
      'running 40.0 ms so far on worker 0 at L2 → in progress',
    );
    const failed = { ...ran!, outcome: 'failed' as const, errorCode: 'WORKER_LOST' as const };
    expect(segmentText(failed, 0, 'fifo')).toBe(
      'running 20.0 ms on worker 2 → failed (WORKER_LOST)',
    );
  });

  it('words priority changes: demotions, aging boosts, a new base priority', () => {
    expect(changeText({ timeNanos: 0, splitId: 4, kind: 'level', from: 0, to: 1 })).toBe(
      'split 4 demoted L0 → L1',
    );
    expect(changeText({ timeNanos: 0, splitId: 4, kind: 'aging', from: 90, to: 75 })).toBe(
      'split 4 aged 90 → 75',
    );
    expect(changeText({ timeNanos: 0, splitId: -1, kind: 'reprioritize', from: 90, to: 80 })).toBe(
      'priority set 90 → 80',
    );
  });
});

describe('the Gantt with a job selected', () => {
  it('draws the selected job’s spans again over the veil, only those in the window', () => {
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 1000,
        spans: [
          { worker: 0, startMs: 100, endMs: 200, job: 5, level: 0 },
          { worker: 1, startMs: 150, endMs: 300, job: 6, level: 0 },
          { worker: 1, startMs: 400, endMs: 500, job: 5, level: 1 },
          { worker: 0, startMs: 10, endMs: 20, job: 5, level: 0 },
        ],
      }),
    );
    const draw = (selectedJob: number | null) => {
      const rec = recordingContext();
      const layout = { width: 800, height: 200, gutter: 72, axis: 22, lanes: 2, selectedJob };
      const r = drawGantt(rec.ctx, t.spans, [], layout, 50, 1000, 'job', TEST_THEME);
      return { r, rects: rec.rects.length };
    };
    const plain = draw(null);
    expect(plain.r.selected).toBe(0);
    const picked = draw(5);
    expect(picked.r.selected).toBe(2);
    expect(picked.rects).toBe(plain.rects + 2);
    expect(draw(42).r.selected).toBe(0);
  });
});
