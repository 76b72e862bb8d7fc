// A job run's report and its trace file give one count of the spans the trace lacks, and one
// time origin.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { runWorkload } from './run-workload.ts';

describe('dropped spans on a job run', () => {
  it('the report counts the quanta its trace window let go, as the trace file does', async () => {
    const workload = parseWorkload({
      name: 'drops',
      config: { workers: 2, quantumMs: 1 },
      classes: [
        {
          name: 'work',
          arrival: { kind: 'once', count: 50 },
          tasks: 1,
          splits: { leaf: 0, intermediate: 2 },
          work: { totalMs: 20 },
        },
      ],
    });
    const { report, trace } = await runWorkload(workload, { trace: true, traceCapacity: 500 });
    const quanta = report.counters.quanta;
    expect(quanta).toBeGreaterThan(500); // 100 splits of 20 one-ms quanta
    const otherData = trace?.otherData as { droppedSpans: number; spans: number };
    expect(otherData.spans).toBe(500);
    expect(otherData.droppedSpans).toBe(quanta - 500);
    // Before: 0 here, whatever the trace let go.
    expect(report.counters.spansDropped).toBe(otherData.droppedSpans);

    const { report: plain } = await runWorkload(workload);
    expect(plain.counters.spansDropped).toBe(0);
  });

  it('the trace’s ts 0 is the run’s start, the report’s time 0: a job arriving at 2 s runs at 2 s', async () => {
    const workload = parseWorkload({
      name: 'delayed',
      config: { workers: 2 },
      classes: [
        {
          name: 'd',
          arrival: { kind: 'once', atMs: 2000, count: 2 },
          splits: { intermediate: 1 },
          work: { totalMs: 100 },
        },
      ],
    });
    const { report, trace } = await runWorkload(workload, { trace: true });
    expect(report.makespanMs).toBe(2100);
    const slices = trace!.traceEvents.filter((e) => e.ph === 'X');
    // Before: at 1.9 s, before the jobs arrived (ts 0 was the first counter sample, at 100 ms).
    expect(slices.map((e) => [e.ts, e.dur])).toEqual([
      [2_000_000, 100_000],
      [2_000_000, 100_000],
    ]);
  });

  it('says how many engine events its markers lack (the event ring keeps the last 1,024)', async () => {
    const marks = Array.from({ length: 1500 }, (_, i) => ({ atMs: i, action: 'mark', label: 'm' }));
    const workload = parseWorkload({
      name: 'marks',
      durationMs: 2000,
      config: { workers: 2 },
      trino: {
        specs: [
          {
            name: 'leaf',
            type: 'leaf',
            concurrentTasks: 1,
            splitsPerTask: 2,
            generator: 'fast-leaf',
          },
        ],
        timeline: [{ atMs: 0, action: 'enable', spec: 'leaf' }, ...marks],
      },
    });
    const { trace } = await runWorkload(workload, { trace: true });
    const markers = trace!.traceEvents.filter((e) => e.ph === 'i');
    const otherData = trace!.otherData as { droppedMarkers: number };
    // Before: 1,024 markers and no word of the 476 before them.
    expect(markers.length + otherData.droppedMarkers).toBeGreaterThanOrEqual(1500);
    expect(otherData.droppedMarkers).toBeGreaterThan(0);
  });

  it('names a graph run’s slices by its one row, graph (not L0)', async () => {
    const workload = parseWorkload({
      name: 'g',
      graph: { generator: 'chain', length: 3, cost: 1 },
    });
    const { trace } = await runWorkload(workload, { trace: true });
    const cats = new Set(trace!.traceEvents.filter((e) => e.ph === 'X').map((e) => e.cat));
    expect([...cats]).toEqual(['graph']);
  });
});
