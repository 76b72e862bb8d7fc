// A run's waits are recorded as they happen: every wait for a worker counts, not a split's total
// at its end, so a report cut while splits still run is true.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { reportJson } from './format.ts';
import { runWorkload } from './run-workload.ts';

/** One worker, FIFO, 10 ms quanta: a and b (30 ms each) alternate a, b, a, b, a, b. */
const alternating = parseWorkload({
  name: 'alternating',
  config: { policy: 'fifo', workers: 1, quantumMs: 10 },
  classes: ['a', 'b'].map((name) => ({
    name,
    arrival: { kind: 'once', atMs: 0 },
    splits: { intermediate: 1 },
    work: { kernel: 'spin', totalMs: 30 },
  })),
});

describe('waits in a report', () => {
  it('counts each wait for a worker: the first and every one after a quantum', async () => {
    const { report } = await runWorkload(alternating);
    // a waits 0, 10, 10 ms (it runs at 0, 20, 40); b waits 10, 10, 10 (it runs at 10, 30, 50).
    expect(report.classes['a']!.waitMs).toEqual({
      p50: 10,
      p95: 10,
      p99: 10,
      max: 10,
      mean: 6.667,
    });
    expect(report.classes['b']!.waitMs).toEqual({ p50: 10, p95: 10, p99: 10, max: 10, mean: 10 });
  });

  it('a report cut mid-run holds the waits so far, the one still in progress included', async () => {
    // At 25 ms: a has waited 0 and 10 ms and runs; b waited 10 ms and has been queued 5 ms.
    const { report } = await runWorkload(alternating, { durationMs: 25 });
    expect(report.stoppedAtMs).toBe(25);
    expect(report.classes['a']!.waitMs).toMatchObject({ max: 10, mean: 5 });
    expect(report.classes['b']!.waitMs).toMatchObject({ max: 10, mean: 7.5 });
    expect(report.classes['b']!.succeeded).toBe(0);
  });

  it('a class none of whose splits was dispatched has no wait (null in JSON), not a wait of 0', async () => {
    const late = parseWorkload({
      ...alternating,
      classes: [
        { ...alternating.classes![0]!, name: 'late', arrival: { kind: 'once', atMs: 500 } },
      ],
    });
    const { report } = await runWorkload(late, { durationMs: 100 });
    expect(report.classes['late']!.waitMs).toBeUndefined();
    expect(reportJson(report).classes['late']).toMatchObject({ latencyMs: null, waitMs: null });
  });

  it('the scan shows its waits while its splits still run (interactive-vs-scan at 5 s)', async () => {
    const { report } = await runWorkload(loadPreset('interactive-vs-scan'), { durationMs: 5000 });
    const scan = report.classes['scan']!;
    expect(scan.unfinished).toBe(1);
    // 256 splits of ≈ 0.5 s on 4 workers: most have waited seconds already.
    expect(scan.waitMs!.p50).toBeGreaterThan(1000);
    expect(scan.waitMs!.max).toBeGreaterThan(4000);
  });

  it('the same seed gives the same report byte for byte', async () => {
    const run = async () =>
      JSON.stringify(
        (await runWorkload(loadPreset('trino-starve-slow'), { durationMs: 60_000 })).report,
      );
    expect(await run()).toBe(await run());
  });

  it("reports Trino's queued time (admission) apart from the wait (ready queue)", async () => {
    const held = parseWorkload({
      name: 'held',
      config: { policy: 'fifo', workers: 1, quantumMs: 100, guaranteedPerTask: 1, minDrivers: 1 },
      classes: [
        {
          name: 'scan',
          arrival: { kind: 'once', atMs: 0 },
          splits: { leaf: 3 },
          work: { kernel: 'spin', totalMs: 10 },
        },
        {
          name: 'agg',
          arrival: { kind: 'once', atMs: 0 },
          splits: { intermediate: 1 },
          work: { kernel: 'spin', totalMs: 10 },
        },
      ],
    });
    const { report } = await runWorkload(held);
    // One driver per task: scan's leaves are admitted at 0, 10 (when the first ends) and 30 ms
    // (the second waits 10 ms in the ready queue behind agg's split, then runs 20–30).
    expect(report.classes['scan']!.queuedMs).toMatchObject({ max: 30, mean: 13.333 });
    expect(report.classes['scan']!.waitMs).toMatchObject({ max: 10, mean: 3.333 });
    expect(report.classes['agg']!.queuedMs).toBeUndefined(); // no leaf splits, no queued time
  });
});
