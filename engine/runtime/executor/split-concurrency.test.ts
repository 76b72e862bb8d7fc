// Trino's split concurrency controller in the executor's leaf admission (TimeSharingTaskHandle's
// pollNextSplit refuses a leaf split at the task's target; splitComplete and addScheduledNanos
// move the target), after TestTimeSharingTaskExecutor's
// testMinDriversPerTaskWhenTargetConcurrencyIncreases, on the simulator.
import { describe, expect, it } from 'vitest';
import type { SpanColumns } from '../../../shared/protocol.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';
import { leaves, MS, simRig, spin } from './testing.ts';

/** Each split's first start and last end (ns). */
function lifetimes(s: SpanColumns): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  for (let i = 0; i < s.count; i++) {
    const span = out.get(s.split[i]!);
    if (span === undefined) out.set(s.split[i]!, [s.start[i]!, s.end[i]!]);
    else span[1] = s.end[i]!;
  }
  return out;
}

/** The most splits alive at once (first start to last end) within [from, to). */
function mostAtOnce(s: SpanColumns, from = 0, to = Infinity): number {
  const points: [number, number][] = [];
  for (const [a, b] of lifetimes(s).values()) {
    if (b <= from || a >= to) continue;
    points.push([Math.max(a, from), 1], [Math.min(b, to), -1]);
  }
  points.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of points) max = Math.max(max, (cur += d));
  return max;
}

describe("Trino's split concurrency controller in leaf admission", () => {
  it('testMinDriversPerTaskWhenTargetConcurrencyIncreases: one leaf at first, both others once it finishes', () => {
    const { sim, ex } = simRig({
      workers: 4,
      quantumMs: 100,
      minDrivers: 1,
      guaranteedPerTask: 2,
      maxDriversPerTask: 2,
      initialSplitConcurrency: 1,
      splitConcurrencyAdjustMs: 1,
    });
    ex.submitJob({ class: 'scan', tasks: [{ splits: leaves(3, spin(30)) }] });
    // The guarantee is 2, but the target (1) holds the second leaf back.
    expect(ex.counters.splitsWaiting).toBe(2);
    expect(ex.taskConcurrency()).toEqual([
      expect.objectContaining({ runningLeaves: 1, waitingLeaves: 2, target: 1, utilization: 0 }),
    ]);
    sim.runUntilIdle();
    const life = [...lifetimes(ex.spans.read(0).columns).values()];
    expect(life[0]).toEqual([0, 30 * MS]);
    // An idle buffer: the first split's end raises the target to 2 and both remaining start.
    expect(life.slice(1).map(([start]) => start)).toEqual([30 * MS, 30 * MS]);
    // Their first quantum end (2 running at target 2, buffer idle) raises it once more.
    expect(ex.taskTargets().get('scan')).toEqual({ tasks: 1, min: 3, mean: 3, max: 3 });
  });

  it('a full output buffer lowers the target to one running leaf; off, the same task runs four', () => {
    const job = {
      class: 'scan',
      tasks: [
        {
          splits: leaves(24, spin(20)),
          outputBuffer: { capacity: 10, producedPerSec: 1000, consumedPerSec: 0 },
        },
      ],
    };
    const base = { workers: 8, quantumMs: 50, guaranteedPerTask: 4, minDrivers: 4 };
    const on = simRig({ ...base, initialSplitConcurrency: 4, splitConcurrencyAdjustMs: 1 });
    on.ex.submitJob(job);
    on.sim.runUntilIdle();
    const off = simRig(base);
    off.ex.submitJob(job);
    off.sim.runUntilIdle();
    const spansOn = on.ex.spans.read(0).columns;
    expect(mostAtOnce(spansOn, 0, 20 * MS)).toBe(4); // the initial target
    // Each finished split finds the buffer full and lowers the target by one, down to 1.
    expect(mostAtOnce(spansOn, 100 * MS)).toBe(1);
    expect(on.ex.taskTargets().get('scan')).toMatchObject({ min: 1, max: 1 });
    expect(mostAtOnce(off.ex.spans.read(0).columns, 100 * MS)).toBe(4);
    expect(off.ex.taskTargets().size).toBe(0);
    expect(on.ex.counters.succeeded).toBe(1);
  });

  it('a consumer that keeps the buffer empty lets the target rise past its start', () => {
    const { sim, ex } = simRig({
      workers: 8,
      quantumMs: 50,
      guaranteedPerTask: 2,
      minDrivers: 8,
      initialSplitConcurrency: 2,
      splitConcurrencyAdjustMs: 1,
    });
    ex.submitJob({
      class: 'scan',
      tasks: [
        {
          splits: leaves(40, spin(20)),
          outputBuffer: { capacity: 100, producedPerSec: 10, consumedPerSec: 10_000 },
        },
      ],
    });
    sim.runUntilIdle();
    expect(mostAtOnce(ex.spans.read(0).columns, 0, 20 * MS)).toBe(2);
    expect(mostAtOnce(ex.spans.read(0).columns)).toBeGreaterThan(2);
    expect(ex.taskTargets().get('scan')!.max).toBeGreaterThan(2);
  });

  it('turns on and off live; bad values are refused naming the field', () => {
    const { sim, ex } = simRig({ workers: 2, quantumMs: 10, guaranteedPerTask: 1 });
    ex.submitJob({ class: 'a', tasks: [{ splits: leaves(10, spin(30)) }] });
    expect(ex.taskConcurrency()).toEqual([]);
    ex.configure({ initialSplitConcurrency: 1 });
    expect(ex.taskConcurrency()).toEqual([expect.objectContaining({ taskId: 1, target: 1 })]);
    ex.configure({ initialSplitConcurrency: null });
    expect(ex.taskConcurrency()).toEqual([]);
    sim.runUntilIdle();
    expect(ex.counters.succeeded).toBe(1);
    expect(schedLabErrorOf(() => ex.configure({ initialSplitConcurrency: 0 }))).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'initialSplitConcurrency',
    });
    const bad = { capacity: 0, producedPerSec: 1, consumedPerSec: 1 };
    expect(
      schedLabErrorOf(() =>
        ex.submitJob({ class: 'a', tasks: [{ splits: leaves(1, spin(1)), outputBuffer: bad }] }),
      ),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'tasks[0].outputBuffer.capacity' });
  });
});
