import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { runWorkload } from '../report/run-workload.ts';
import { toChromeTrace, type TraceEvent } from './chrome-trace.ts';
import { TraceWindow, type TraceSpan } from './trace-window.ts';

function span(
  worker: number,
  start: number,
  end: number,
  splitId: number,
  extra: Partial<TraceSpan> = {},
): TraceSpan {
  return {
    worker,
    startNanos: start,
    endNanos: end,
    jobId: 1,
    taskId: 1,
    splitId,
    level: 0,
    outcome: 'yielded',
    cls: 'q',
    ...extra,
  };
}

/** Slices on one tid never overlap (touching is fine). */
function overlaps(events: TraceEvent[]): number {
  const byTid = new Map<number, TraceEvent[]>();
  for (const e of events.filter((e) => e.ph === 'X'))
    byTid.set(e.tid!, [...(byTid.get(e.tid!) ?? []), e]);
  let n = 0;
  for (const list of byTid.values()) {
    list.sort((a, b) => a.ts! - b.ts!);
    for (let i = 1; i < list.length; i++)
      if (list[i]!.ts! < list[i - 1]!.ts! + list[i - 1]!.dur! - 1e-9) n++;
  }
  return n;
}

describe('Chrome trace export', () => {
  it('names one thread per worker, a slice per quantum with its args, counters and flows', () => {
    const trace = toChromeTrace({
      workers: 2,
      spans: [span(0, 1000, 5000, 7, { outcome: 'finished', level: 2 }), span(1, 6000, 9000, 8)],
      samples: [{ timeNanos: 0, depth: [3, 1, 0, 0, 0], scheduledNanos: [2e6, 0, 0, 0, 0] }],
      edges: [[7, 8]],
    });
    const parsed = JSON.parse(JSON.stringify(trace)) as typeof trace;
    const ev = parsed.traceEvents;
    expect(ev.filter((e) => e.name === 'thread_name').map((e) => [e.tid, e.args?.name])).toEqual([
      [1, 'worker 0'],
      [2, 'worker 1'],
    ]);
    const x = ev.find((e) => e.ph === 'X' && e.tid === 1)!;
    expect(x).toMatchObject({
      ts: 1,
      dur: 4,
      args: { job: 1, task: 1, split: 7, level: 2, outcome: 'finished' },
    });
    expect(ev.find((e) => e.ph === 'C' && e.name === 'queue depth')?.args).toEqual({
      L0: 3,
      L1: 1,
      L2: 0,
      L3: 0,
      L4: 0,
    });
    const flows = ev.filter((e) => e.ph === 's' || e.ph === 'f');
    expect(flows.map((e) => [e.ph, e.id, e.tid])).toEqual([
      ['s', 1, 1],
      ['f', 1, 2],
    ]);
  });

  it('for any spans: well-formed, no overlapping slices on a thread, flow ids small and nonzero', () => {
    const arbSpan = fc.record({
      worker: fc.integer({ min: 0, max: 3 }),
      start: fc.integer({ min: 0, max: 1e9 }),
      len: fc.integer({ min: 0, max: 1e7 }),
      split: fc.integer({ min: 1, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.array(arbSpan, { maxLength: 200 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 })), {
          maxLength: 40,
        }),
        (raw, edges) => {
          const spans = raw.map((r) => span(r.worker, r.start, r.start + r.len, r.split));
          const trace = toChromeTrace({ workers: 4, spans, edges });
          const ev = (JSON.parse(JSON.stringify(trace)) as typeof trace).traceEvents;
          expect(overlaps(ev)).toBe(0);
          for (const e of ev) {
            expect(['X', 'M', 'C', 's', 'f']).toContain(e.ph);
            if (e.ph !== 'M') expect(e.ts).toBeGreaterThanOrEqual(0);
            if (e.ph === 'X') expect(e.dur).toBeGreaterThanOrEqual(0);
          }
          const ids = ev.filter((e) => e.ph === 's').map((e) => e.id!);
          expect(ids).toEqual(ids.map((_, i) => i + 1));
          expect(ev.filter((e) => e.ph === 'f')).toHaveLength(ids.length);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps a bounded window and reports what it dropped', () => {
    const w = new TraceWindow(10);
    for (let i = 0; i < 25; i++) w.addSpan(span(0, i * 10, i * 10 + 5, i + 1));
    const snap = w.snapshot();
    expect(snap.spans.map((s) => s.splitId)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(snap.dropped).toBe(15);
    expect(toChromeTrace({ workers: 1, ...snap }).otherData.droppedSpans).toBe(15);
  });

  it('draws a flow from the time-last slice of a node that resumed on another worker', () => {
    const us = 1000;
    // Node 5 starts on worker 1, blocks, and resumes on worker 0; 4 → 5 → 6.
    const trace = toChromeTrace({
      workers: 2,
      spans: [
        span(0, 0, 10 * us, 4, { outcome: 'finished' }),
        span(1, 10 * us, 20 * us, 5, { outcome: 'blocked' }),
        span(0, 40 * us, 50 * us, 5, { outcome: 'finished' }),
        span(1, 60 * us, 70 * us, 6, { outcome: 'finished' }),
      ],
      edges: [
        [4, 5],
        [5, 6],
      ],
    });
    const flows = trace.traceEvents.filter((e) => e.ph === 's' || e.ph === 'f');
    expect(flows.map((e) => [e.ph, e.id, e.tid, e.ts])).toEqual([
      ['s', 1, 1, 5],
      ['f', 1, 2, 10], // into 5's first slice: worker 1 at 10 µs
      ['s', 2, 1, 45], // out of 5's last slice: worker 0 at 40–50 µs
      ['f', 2, 2, 60],
    ]);
  });

  it('exports counters over the same stretch of time as the slices it kept', () => {
    const w = new TraceWindow(10);
    for (let t = 0; t < 250; t++) {
      if (t % 10 === 0) w.addSpan(span(0, t, t + 5, t / 10 + 1));
      w.addSample({ timeNanos: t, depth: [t], scheduledNanos: [0] });
    }
    const snap = w.snapshot();
    expect(snap.spans[0]!.startNanos).toBe(150);
    const times = snap.samples.map((x) => x.timeNanos);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(150);
    expect(Math.min(...times)).toBeLessThanOrEqual(154); // reaches back to the first slice
    expect(times.at(-1)).toBe(249);
    expect(snap.samples.length + snap.droppedSamples).toBe(250);
    expect(toChromeTrace({ workers: 1, ...snap }).otherData.droppedSamples).toBe(
      snap.droppedSamples,
    );
  });

  it('thins counters rather than lose the start of a window whose slices all fit', () => {
    const w = new TraceWindow(100);
    for (let t = 0; t < 1000; t++) {
      if (t % 100 === 50) w.addSpan(span(0, t, t + 10, t));
      w.addSample({ timeNanos: t, depth: [0], scheduledNanos: [0] });
    }
    const { samples, droppedSamples, spans } = w.snapshot();
    expect(spans).toHaveLength(10);
    expect(samples.length).toBeLessThanOrEqual(64);
    expect(samples[0]!.timeNanos).toBeLessThanOrEqual(50); // before the first slice, as it began
    expect(samples.at(-1)!.timeNanos).toBe(999);
    expect(samples.length + droppedSamples).toBe(1000);
  });

  it('a run whose window dropped slices has no counters before its first slice', async () => {
    const { trace } = await runWorkload(loadPreset('interactive-vs-scan'), {
      trace: true,
      traceCapacity: 500,
    });
    const ev = trace!.traceEvents;
    const slices = ev.filter((e) => e.ph === 'X');
    const counters = ev.filter((e) => e.ph === 'C');
    expect(trace!.otherData['droppedSpans']).toBeGreaterThan(0);
    expect(trace!.otherData['droppedSamples']).toBeGreaterThan(0);
    const firstSlice = Math.min(...slices.map((e) => e.ts!));
    const lastSlice = Math.max(...slices.map((e) => e.ts! + e.dur!));
    const counterTimes = counters.map((e) => e.ts!);
    expect(Math.min(...counterTimes)).toBeGreaterThanOrEqual(firstSlice);
    // …and they run on to the end: the last sample is within one 100 ms step of the last slice.
    expect(Math.max(...counterTimes)).toBeGreaterThan(lastSlice - 100_000);
  });

  it('a run’s trace names charged time apart from the level clock, with cat on every event', async () => {
    const { trace, report } = await runWorkload(loadPreset('interactive-vs-scan'), {
      trace: true,
      durationMs: 3000,
    });
    const ev = trace!.traceEvents;
    expect(ev.filter((e) => !e.cat)).toEqual([]);
    const last = (name: string) => ev.filter((e) => e.ph === 'C' && e.name === name).at(-1)!;
    expect(Object.keys(last('level clock ms').args!)).toEqual(['L0', 'L1', 'L2', 'L3', 'L4']);
    // The last sample is the run's end: charged ms per level is what the report says.
    const charged = last('charged ms').args as Record<string, number>;
    expect(report.levels.map((l) => charged[l.label])).toEqual(
      report.levels.map((l) => l.chargedMs),
    );
    expect(trace!.otherData).toMatchObject({ policy: 'mlfq', workload: 'interactive-vs-scan' });
  });

  it('names a quantum’s level as the report and counters do: a PRIO band under priority', async () => {
    // Before: every slice's cat was `L1`, `L2`… while the counters and report said `p20-39`.
    const { trace, report } = await runWorkload(loadPreset('batch-service'), {
      trace: true,
      durationMs: 3000,
    });
    const labels = new Set(report.levels.map((l) => l.label));
    const cats = new Set(trace!.traceEvents.filter((e) => e.ph === 'X').map((e) => e.cat));
    expect(cats.size).toBeGreaterThan(1);
    for (const cat of cats) expect(labels).toContain(cat);
    expect([...cats].every((c) => /^p\d+-\d+$/.test(c))).toBe(true);
  });
});
