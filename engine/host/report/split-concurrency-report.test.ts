// Trino's split concurrency controller as a user sees it: each task's target in the run report
// (JSON and text) and, live, in frames — only while `initialSplitConcurrency` is set.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { leaves, spin } from '../../runtime/executor/testing.ts';
import { Session } from '../session/session.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';

/** Scans whose consumer cannot keep up (their targets fall) next to ones it drains (they rise). */
function scans(initialSplitConcurrency: number | null) {
  return parseWorkload({
    name: 'buffers',
    config: {
      workers: 8,
      quantumMs: 10,
      guaranteedPerTask: 4,
      minDrivers: 8,
      initialSplitConcurrency,
      splitConcurrencyAdjustMs: 1,
    },
    classes: [
      { name: 'slow-consumer', buffer: { capacity: 10, producedPerSec: 1000, consumedPerSec: 1 } },
      { name: 'fast-consumer', buffer: { capacity: 10, producedPerSec: 10, consumedPerSec: 1e4 } },
    ].map(({ name, buffer }) => ({
      name,
      arrival: { kind: 'periodic', everyMs: 200, count: 3 },
      splits: { leaf: 24 },
      work: { kernel: 'spin', totalMs: 20 },
      outputBuffer: buffer,
    })),
  });
}

describe("the split concurrency controller's targets", () => {
  it('a report names each class’s task targets: a full buffer ends at 1, a drained one above its start', async () => {
    const { report, wallMs } = await runWorkload(scans(4));
    const slow = report.classes['slow-consumer']!.targetConcurrency!;
    const fast = report.classes['fast-consumer']!.targetConcurrency!;
    expect(slow).toEqual({ tasks: 3, min: 1, mean: 1, max: 1 });
    expect(fast.tasks).toBe(3);
    expect(fast.min).toBeGreaterThan(4);
    const text = formatReport(report, wallMs);
    expect(text).toContain("leaf split concurrency (Trino's controller");
    expect(text).toMatch(/slow-consumer\s+3\s+1\s+1\s+1/);
  });

  it('off (the default), a report carries no targets and no such section', async () => {
    const { report } = await runWorkload(scans(null));
    expect(report.classes['slow-consumer']!.targetConcurrency).toBeUndefined();
    expect(formatReport(report)).not.toContain('leaf split concurrency');
  });

  it('frames list the live tasks with their running leaves, target and utilisation', () => {
    const s = new Session({
      config: { workers: 4, quantumMs: 10, guaranteedPerTask: 2, initialSplitConcurrency: 2 },
    });
    const buffer = { capacity: 10, producedPerSec: 1000, consumedPerSec: 0 };
    s.executor.submitJob({
      class: 'scan',
      tasks: [{ splits: leaves(8, spin(40)), outputBuffer: buffer }],
    });
    const f = s.advance(15).at(-1)!;
    expect(f.taskConcurrency).toEqual([
      {
        taskId: 1,
        jobId: 1,
        class: 'scan',
        runningLeaves: 2,
        waitingLeaves: 6,
        target: 2,
        utilization: 1,
      },
    ]);
    s.executor.configure({ initialSplitConcurrency: null });
    expect(s.advance(10).at(-1)!.taskConcurrency).toBeUndefined();
  });
});
