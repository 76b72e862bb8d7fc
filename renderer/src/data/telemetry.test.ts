import { describe, expect, it } from 'vitest';
import { bucketOf } from '../../../shared/lib/histogram.ts';
import type { HistoryPoint } from '../../../shared/protocol.ts';
import { depthSeries, levelShares } from './derive.ts';
import { rangeSummaries } from './range-stats.ts';
import { buildTrace } from './trace-export.ts';
import { seriesCsv } from './csv-export.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

function feed(
  t: Telemetry,
  frames: number,
  perFrame: (f: number) => Parameters<typeof syntheticFrame>[0]['spans'],
) {
  for (let f = 1; f <= frames; f++)
    t.ingestFrame(
      syntheticFrame({ seq: f, timeMs: f * 100, spans: perFrame(f) ?? [], depth: [1, 1, 0, 0, 0] }),
    );
}

describe('Telemetry', () => {
  it('keeps spans and points bounded however long the stream runs', () => {
    const t = new Telemetry({ spanCapacity: 64, pointCapacity: 10 });
    feed(t, 100, (f) => [{ worker: 0, startMs: f * 100 - 50, endMs: f * 100, job: f, level: 0 }]);
    expect(t.spans.size).toBe(64);
    expect(t.points.size).toBe(10);
    expect(t.points.last()?.seq).toBe(100);
    expect(t.nowMs).toBe(10_000);
  });

  it('counts spans that never arrived: dropped by the host or carried by frames it skipped', () => {
    const t = new Telemetry();
    const frame = { ...syntheticFrame({ seq: 1, timeMs: 10 }), spansDropped: 5 };
    t.ingestFrame(frame, { frames: 2, spans: 40 });
    expect(t.lostSpans).toBe(45);
    expect(t.skippedFrames).toBe(2);
  });

  it('converts engine ns to ms and interns class names across frames', () => {
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 10,
        spans: [{ worker: 1, startMs: 2, endMs: 5, job: 7, level: 2, cls: 'scan' }],
      }),
    );
    t.ingestFrame(
      syntheticFrame({
        seq: 2,
        timeMs: 20,
        spans: [
          { worker: 0, startMs: 11, endMs: 12, job: 8, level: 0, cls: 'interactive' },
          { worker: 0, startMs: 12, endMs: 13, job: 7, level: 2, cls: 'scan' },
        ],
      }),
    );
    const i = t.spans.slot(0);
    expect([t.spans.start[i], t.spans.end[i], t.spans.level[i]]).toEqual([2, 5, 2]);
    expect(t.classNames).toEqual(['scan', 'interactive']);
    expect(t.spans.cls[t.spans.slot(2)]).toBe(0);
  });

  it('a snapshot replaces what a previous connection left', () => {
    const t = new Telemetry();
    feed(t, 5, () => [{ worker: 0, startMs: 0, endMs: 1, job: 1, level: 0 }]);
    // Frames the old connection skipped are not this Gantt's loss (a new connection's host
    // counts from 0, and says nothing until it skips one): before, "spans dropped" kept them.
    t.ingestFrame(syntheticFrame({ seq: 6, timeMs: 600 }), { frames: 3, spans: 70 });
    const frame = syntheticFrame({ seq: 50, timeMs: 5000 });
    t.ingestSnapshot({
      type: 'snapshot',
      frame,
      spans: frame.spans,
      events: [{ timeNanos: 4e9, kind: 'config', detail: 'm=3' }],
      policies: ['mlfq'],
      frameHz: 10,
    });
    expect(t.spans.size).toBe(0);
    expect(t.points.size).toBe(1);
    expect(t.markers.toArray()).toEqual([{ tMs: 4000, kind: 'config', detail: 'm=3' }]);
    expect([t.skippedFrames, t.lostSpans]).toEqual([0, 0]);
  });

  it('a snapshot seeds the chart series with the host history, so charts are not empty after a reload', () => {
    const t = new Telemetry();
    feed(t, 3, () => []);
    const history = Array.from({ length: 40 }, (_, k) => ({
      seq: 11 + k,
      timeNanos: (11 + k) * 100e6,
      depth: [k, 0, 1, 0, 0],
      scheduledNanos: [k * 1e6, 0, 0, 0, 0],
      selections: [k, 0, 0, 0, 0],
      utilization: 0.5,
      succeeded: k,
      submitted: k + 1,
      live: 1,
    }));
    // The snapshot's frame is the state now of the last frame (seq 50), a little later.
    const frame = syntheticFrame({ seq: 50, timeMs: 5020, depth: [9, 9, 9, 9, 9] });
    t.ingestSnapshot({
      type: 'snapshot',
      frame,
      history,
      spans: frame.spans,
      events: [],
      policies: ['mlfq'],
      frameHz: 10,
    });
    const points = t.points.toArray();
    expect(points).toHaveLength(40);
    expect(points.map((p) => p.seq)).toEqual([...history.slice(0, 39).map((h) => h.seq), 50]);
    expect(points[0]).toMatchObject({ tMs: 1100, depth: [0, 0, 1, 0, 0], succeeded: 0 });
    expect(points[38]).toMatchObject({ tMs: 4900, levelMs: [38, 0, 0, 0, 0], submitted: 39 });
    expect(points[39]).toMatchObject({ tMs: 5020, depth: [9, 9, 9, 9, 9] });
    // The depth chart has 4 s of rows at once.
    const { rows } = depthSeries(t.points.tail(600));
    expect(rows.at(-1)!['t']! - rows[0]!['t']!).toBeCloseTo(3.92, 5);
  });

  it('a snapshot keeps the samples of its last history point, so Distributions counts what the tables count', () => {
    // Each history point's frame recorded `k + 1` waits of 2 ms for class `a`.
    const history: HistoryPoint[] = [1, 2, 3].map((k) => {
      const waits = { maxNanos: 2e6, sumNanos: (k + 1) * 2e6, buckets: [bucketOf(2000), k + 1] };
      return {
        seq: k,
        timeNanos: k * 100e6,
        depth: [0],
        scheduledNanos: [0],
        selections: [0],
        utilization: 0,
        succeeded: 0,
        submitted: 0,
        live: 0,
        samples: {
          latency: { byClass: {}, byBand: {} },
          wait: { byClass: { a: waits }, byBand: {} },
        },
      };
    });
    // The snapshot's frame is the last point's frame, state now: it carries no samples.
    const frame = syntheticFrame({ seq: 3, timeMs: 310 });
    const t = new Telemetry();
    t.ingestSnapshot({
      type: 'snapshot',
      frame,
      history,
      spans: frame.spans,
      events: [],
      policies: ['mlfq'],
      frameHz: 10,
    });
    const waits = rangeSummaries(t.points.toArray(), 'wait', 'byClass').get('a');
    expect(waits?.count).toBe(2 + 3 + 4);
  });

  it('the share panel reads charged time, not the level a span had at dispatch', () => {
    // The engine's case: every span was dispatched at level 0, yet the queue charged the quanta
    // across levels as they crossed thresholds: 58.7 / 26.1 / 15.2 % of each 100 ms.
    const t = new Telemetry();
    for (let f = 0; f <= 50; f++) {
      t.ingestFrame(
        syntheticFrame({
          seq: f,
          timeMs: f * 100,
          depth: [2, 1, 1, 0, 0],
          chargedMs: [58.7 * f, 26.1 * f, 15.2 * f, 0, 0],
          spans: [{ worker: 0, startMs: f * 100 - 90, endMs: f * 100, job: 1, level: 0 }],
        }),
      );
    }
    const w = levelShares(t, 1000, 2)!;
    expect(w.reported).toBe(true);
    expect(w.coveredMs).toBe(1000);
    expect(w.rows.map((r) => r.charged! * 100)).toEqual([
      expect.closeTo(58.7, 6),
      expect.closeTo(26.1, 6),
      expect.closeTo(15.2, 6),
      0,
      0,
    ]);
    // Target among the three non-empty levels: 4/7, 2/7, 1/7.
    expect(w.rows[0]!.target).toBeCloseTo(4 / 7);
    expect(w.rows[2]!.target).toBeCloseTo(1 / 7);
    expect(w.rows[3]!.target).toBe(0);
  });

  it('a range share starts at the last point at or before the range, as the selections do', () => {
    // L0 is charged until 200 ms, then only L1. Before, a range from 199 to 1001 ms dropped the
    // point at 100 ms (further before the start than 1000 lay before the end): L0 read 0 %.
    const t = new Telemetry();
    for (let f = 1; f <= 12; f++) {
      const l0 = Math.min(f, 2) * 10;
      const l1 = Math.max(0, f - 2) * 10;
      t.ingestFrame(
        syntheticFrame({ seq: f, timeMs: f * 100, depth: [1, 1], chargedMs: [l0, l1] }),
      );
    }
    const w = levelShares(t, 5000, 2, { fromMs: 199, toMs: 1001 })!;
    expect(w.rows.map((r) => r.charged)).toEqual([
      expect.closeTo(1 / 9, 6),
      expect.closeTo(8 / 9, 6),
    ]);
  });

  it('a live share window narrower than the frame interval covers the last interval (100×)', () => {
    // Frames 10 s of engine time apart; 3 s of every 10 s charged to L0, 7 to L1. Before, a 5 s
    // window held one point and every level read 0 %.
    const t = new Telemetry();
    for (let f = 1; f <= 6; f++) {
      t.ingestFrame(
        syntheticFrame({
          seq: f,
          timeMs: f * 10_000,
          depth: [1, 1],
          chargedMs: [3000 * f, 7000 * f],
        }),
      );
    }
    const w = levelShares(t, 5000, 2)!;
    expect(w.coveredMs).toBe(10_000);
    expect(w.rows.map((r) => r.charged)).toEqual([expect.closeTo(0.3, 6), expect.closeTo(0.7, 6)]);
    // A window that holds frames starts at the one at or before its start, not earlier.
    expect(levelShares(t, 20_000, 2)!.coveredMs).toBe(20_000);
    expect(levelShares(t, 25_000, 2)!.coveredMs).toBe(30_000);
  });

  it('says charged time is not reported instead of making a share up', () => {
    const t = new Telemetry();
    feed(t, 20, (f) => [{ worker: 0, startMs: f * 100 - 40, endMs: f * 100, job: 1, level: 0 }]);
    const w = levelShares(t, 1000, 2)!;
    expect(w.reported).toBe(false);
    expect(w.rows.every((r) => r.charged === null)).toBe(true);
  });
});

describe('exports', () => {
  it('builds a Perfetto trace: named worker threads, one X per quantum in the window, counters', () => {
    const t = new Telemetry();
    feed(t, 10, (f) => [
      { worker: 0, startMs: f * 100 - 50, endMs: f * 100 - 20, job: f, level: 0 },
      { worker: 2, startMs: f * 100 - 30, endMs: f * 100, job: f, level: 1 },
    ]);
    const doc = JSON.parse(JSON.stringify(buildTrace(t, 300, 700))) as ReturnType<
      typeof buildTrace
    >;
    const names = doc.traceEvents.filter((e) => e.name === 'thread_name').map((e) => e.args?.name);
    expect(names).toEqual(['worker 0', 'worker 2']);
    const slices = doc.traceEvents.filter((e) => e.ph === 'X');
    expect(slices.every((e) => e.ts! + e.dur! >= 300_000 && e.ts! <= 700_000)).toBe(true);
    // worker 0: frames 4–7; worker 2: frames 3–7 (its frame-3 quantum ends exactly at 300).
    expect(slices.length).toBe(9);
    expect(slices[0]!.args).toMatchObject({ level: 0, outcome: 'yielded', class: 'batch' });
    // No two slices overlap on one thread.
    for (let k = 1; k < slices.length; k++) {
      const a = slices[k - 1]!;
      const b = slices[k]!;
      if (a.tid === b.tid) expect(b.ts!).toBeGreaterThanOrEqual(a.ts! + a.dur!);
    }
    expect(doc.traceEvents.some((e) => e.ph === 'C' && e.name === 'queue depth')).toBe(true);
  });

  it('writes one CSV row per frame with a column per level', () => {
    const t = new Telemetry();
    feed(t, 3, () => []);
    const lines = seriesCsv(t.points.toArray(), 5).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]!.split(',')).toContain('depth_L4');
    expect(lines[1]!.split(',')[0]).toBe('1');
  });

  it('keeps every level any row has after a switch to one level, leaving a row’s missing ones empty', () => {
    // Sized by the latest frame (fifo: one level), the CSV dropped the mlfq rows' L1–L4.
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({ seq: 1, timeMs: 100, depth: [0, 0, 0, 7, 0], config: { policy: 'mlfq' } }),
    );
    t.ingestFrame(syntheticFrame({ seq: 2, timeMs: 200, depth: [3], config: { policy: 'fifo' } }));
    const [header, mlfq, fifo] = seriesCsv(t.points.toArray(), 1).trim().split('\n');
    const columns = header!.split(',');
    const at = (row: string, name: string) => row.split(',')[columns.indexOf(name)];
    expect(columns).toContain('depth_L4');
    expect(at(mlfq!, 'depth_L3')).toBe('7');
    expect(at(fifo!, 'depth_L0')).toBe('3');
    expect(at(fifo!, 'depth_L3')).toBe('');
  });

  it('writes the aging boosts per band under priority, and leaves them empty elsewhere', () => {
    const t = new Telemetry();
    const boosts = [0, 1, 0, 3, 9];
    t.ingestFrame(
      syntheticFrame({ seq: 1, timeMs: 100, agingBoosts: boosts, config: { policy: 'priority' } }),
    );
    t.ingestFrame(syntheticFrame({ seq: 2, timeMs: 200, config: { policy: 'fifo' } }));
    const [header, prio, fifo] = seriesCsv(t.points.toArray(), 5).trim().split('\n');
    const col = header!.split(',').indexOf('aging_boosts_L0');
    expect(col).toBeGreaterThan(0);
    expect(
      prio!
        .split(',')
        .slice(col, col + 5)
        .map(Number),
    ).toEqual(boosts);
    expect(fifo!.split(',').slice(col, col + 5)).toEqual(['', '', '', '', '']);
  });

  it('gives each row the config of its own frame, not the config at export time', () => {
    const t = new Telemetry();
    t.ingestFrame(syntheticFrame({ seq: 1, timeMs: 100, config: { policy: 'mlfq' } }));
    t.ingestFrame(syntheticFrame({ seq: 2, timeMs: 200, config: { policy: 'priority' } }));
    // As the export view calls it: the latest frame's policy and config for rows without one.
    const latest = t.latest!;
    const csv = seriesCsv(t.points.toArray(), 5, { policy: latest.policy, config: latest.config });
    const [, mlfq, prio] = csv.trim().split('\n');
    // The config is the last column, quoted JSON with its quotes doubled.
    const config = (row: string) =>
      JSON.parse(row.slice(row.indexOf('"') + 1, -1).replaceAll('""', '"')) as { policy: string };
    expect(mlfq!.split(',')[2]).toBe('mlfq');
    expect(config(mlfq!).policy).toBe('mlfq');
    expect(config(prio!).policy).toBe('priority');
  });
});
