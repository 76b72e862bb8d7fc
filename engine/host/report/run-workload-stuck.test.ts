// `schedlab run` on threads with a user module that never yields: the run ends, the stuck split is
// killed (hardKillAfterMs) and counted as a runaway, the other jobs finish, and the report carries
// CPU time next to wall time.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';

const STUCK = fileURLToPath(new URL('../../runtime/threads/fixtures/stuck.mjs', import.meta.url));

describe('runWorkload on threads with a stuck module', () => {
  it(
    'kills it past hardKillAfterMs, reports runaway and killed quanta and CPU next to wall time',
    { timeout: 90_000 },
    async () => {
      const workload = parseWorkload({
        name: 'stuck',
        durationMs: 20_000,
        config: { quantumMs: 20, hardKillAfterMs: 300, runawayAfterMs: 100, policy: 'fifo' },
        classes: [
          {
            name: 'stuck',
            arrival: { kind: 'once' },
            splits: { leaf: 1 },
            work: { kernel: { module: STUCK, exportName: 'loops' }, totalMs: 1 },
          },
          {
            name: 'work',
            arrival: { kind: 'once', count: 4 },
            splits: { leaf: 2 },
            work: { kernel: 'spin', totalMs: 20 },
          },
        ],
      });
      const { report } = await runWorkload(workload, {
        backend: 'threads',
        config: { workers: 2 },
      });
      // Everything ended well before the 20 s duration: the stuck split did not hold the run.
      expect(report.stoppedAtMs).toBeNull();
      expect(report.classes['stuck']).toMatchObject({ failed: 1, succeeded: 0 });
      expect(report.classes['work']).toMatchObject({ succeeded: 4, failed: 0 });
      const k = report.counters;
      expect(k.killedQuanta).toBe(1);
      expect(k.runawayQuanta).toBeGreaterThanOrEqual(1);
      expect(k.stuckSplitIds).toEqual([]);
      expect(k.stuckTaskIds).toEqual([]);
      expect(k.overrunMs).toBeGreaterThan(300);
      // CPU is measured on Linux (thread-cpu.ts); it never exceeds the wall time it ran in.
      if (process.platform === 'linux') {
        expect(k.cpuMs).toBeGreaterThan(0);
        expect(k.cpuMs!).toBeLessThanOrEqual(k.busyMs! * 1.01);
      }
      expect(formatReport(report)).toMatch(/runaway quanta \d+ · killed 1/);
    },
  );
});

describe('runWorkload cut while splits are stuck (simulator)', () => {
  // Two workers, 10 ms quanta: both leaves of one `hog` task run calls of 500 ms that cannot be
  // cut (perCallMs), so they overrun their quantum by far more than 100 ms; `work` waits or runs.
  const hogs = parseWorkload({
    name: 'hogs',
    config: { workers: 2, quantumMs: 10, runawayAfterMs: 100, policy: 'fifo' },
    classes: [
      {
        name: 'work',
        arrival: { kind: 'once', atMs: 0, count: 2 },
        splits: { leaf: 2 },
        work: { kernel: 'spin', totalMs: 20 },
      },
      {
        name: 'hog',
        arrival: { kind: 'once', atMs: 0 },
        splits: { leaf: 2 },
        work: { kernel: 'spin', totalMs: 500, perCallMs: 500 },
      },
    ],
  });

  it("lists the stuck splits and, as Trino's getStuckSplitTaskIds, their task once", async () => {
    // Run to the end once with a trace: the hog quanta name the hog task and splits.
    const whole = await runWorkload(hogs, { trace: true });
    expect(whole.report.counters.stuckSplitIds).toEqual([]);
    expect(whole.report.counters.stuckTaskIds).toEqual([]);
    const hogSlices = whole.trace!.traceEvents.filter(
      (e) => e.ph === 'X' && e.name.startsWith('hog #'),
    );
    const hogSplits = [...new Set(hogSlices.map((e) => e.args!['split']))].sort();
    const hogTasks = [...new Set(hogSlices.map((e) => e.args!['task']))];
    expect(hogSplits).toHaveLength(2);
    expect(hogTasks).toHaveLength(1);

    // The same run cut at 300 ms: both hogs have run ≥ 200 ms of their 500 ms call.
    const { report } = await runWorkload(hogs, { durationMs: 300 });
    expect(report.stoppedAtMs).toBe(300);
    expect(report.classes['hog']).toMatchObject({ succeeded: 0, unfinished: 1 });
    const k = report.counters;
    expect([...k.stuckSplitIds!].sort()).toEqual(hogSplits);
    expect(k.stuckTaskIds).toEqual(hogTasks);
    expect(formatReport(report)).toContain(
      `stuck at the end: split ${k.stuckSplitIds!.join(', ')} (task ${hogTasks[0]})`,
    );
  });
});
