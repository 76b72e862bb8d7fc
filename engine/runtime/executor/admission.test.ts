import { describe, expect, it } from 'vitest';
import type { SpanColumns } from '../../../shared/protocol.ts';
import { intermediates, leaves, simRig, spin } from './testing.ts';

/** Per task, the most splits admitted at once: a split holds its slot from first start to end. */
function maxDriversByTask(s: SpanColumns, groupOf = (task: number) => task): Map<number, number> {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const taskOf = new Map<number, number>();
  for (let i = 0; i < s.count; i++) {
    const id = s.split[i]!;
    if (!first.has(id)) first.set(id, s.start[i]!);
    last.set(id, s.end[i]!);
    taskOf.set(id, groupOf(s.task[i]!));
  }
  const points = new Map<number, [number, number][]>();
  for (const [id, t] of taskOf) {
    const list = points.get(t) ?? [];
    list.push([first.get(id)!, 1], [last.get(id)!, -1]);
    points.set(t, list);
  }
  const out = new Map<number, number>();
  for (const [t, list] of points) {
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let cur = 0;
    let max = 0;
    for (const [, d] of list) max = Math.max(max, (cur += d));
    out.set(t, max);
  }
  return out;
}

describe('Trino admission', () => {
  it('never runs more than maxDriversPerTask leaf splits of one task', () => {
    const { sim, ex } = simRig({ workers: 8, quantumMs: 10, maxDriversPerTask: 5, policy: 'fifo' });
    ex.submitJob({ class: 'scan', tasks: [{ splits: leaves(60, spin(30)) }] });
    sim.runUntilIdle();
    expect(maxDriversByTask(ex.spans.read(0).columns).get(1)).toBe(5);
    expect(ex.counters.succeeded).toBe(1);
  });

  it('keeps guaranteedPerTask running per task even above minDrivers', () => {
    const { sim, ex } = simRig({ workers: 16, quantumMs: 10, minDrivers: 1, guaranteedPerTask: 3 });
    ex.submitJob({
      class: 'a',
      tasks: [{ splits: leaves(20, spin(30)) }, { splits: leaves(20, spin(30)) }],
    });
    sim.runUntilIdle();
    const drivers = maxDriversByTask(ex.spans.read(0).columns);
    expect([...drivers.values()]).toEqual([3, 3]);
  });

  it('tops up round-robin across tasks to minDrivers; intermediate splits bypass admission', () => {
    const { sim, ex } = simRig({ workers: 4, quantumMs: 10, guaranteedPerTask: 1 }); // minDrivers = 8
    ex.submitJob({
      class: 'a',
      tasks: [
        { splits: leaves(30, spin(50)) },
        { splits: leaves(30, spin(50)) },
        { splits: intermediates(10, spin(50)) },
      ],
    });
    // As in Trino, intermediate splits do not count towards minDrivers: 8 leaves start, 4 each.
    expect(ex.counters.splitsWaiting).toBe(52);
    expect(ex.counters.splitsQueued + ex.counters.splitsRunning).toBe(18);
    sim.runUntilIdle();
    const drivers = maxDriversByTask(ex.spans.read(0).columns);
    const leafTasksTogether = maxDriversByTask(ex.spans.read(0).columns, (t) => (t <= 2 ? 0 : t));
    expect(leafTasksTogether.get(0)).toBe(8);
    expect(Math.min(drivers.get(1)!, drivers.get(2)!)).toBeGreaterThanOrEqual(4);
    expect(drivers.get(3)).toBe(10);
  });
});

/** Split ids in the order of their first dispatch. */
function firstDispatchOrder(s: SpanColumns): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const id = s.split[i]!;
    if (!seen.has(id)) out.push(id);
    seen.add(id);
  }
  return out;
}

describe("Trino's pollNextSplitWorker round robin", () => {
  it('registers tasks when they are created and keeps the place of a task whose queue emptied', () => {
    // One worker, FIFO: dispatch order is admission order. minDrivers 3, guarantee 1.
    const { sim, ex } = simRig({
      workers: 1,
      quantumMs: 1000,
      policy: 'fifo',
      minDrivers: 3,
      guaranteedPerTask: 1,
    });
    // Tasks A then B are registered at creation: Trino's list is [A, B].
    ex.submitJob({
      class: 'q',
      tasks: [
        { splits: [], open: true },
        { splits: [], open: true },
      ],
    });
    const [a, b] = [1, 2];
    // B: b1 by its guarantee, b2 and b3 by the round robin (B moves to the end, behind A).
    const b123 = ex.addSplits(b, leaves(3, spin(10)));
    // Admitted leaves are at minDrivers: b4 and b5 wait; A still precedes B in the list.
    const b45 = ex.addSplits(b, leaves(2, spin(10)));
    // A: a1 by its guarantee, a2 waits.
    const a12 = ex.addSplits(a, leaves(2, spin(10)));
    sim.runUntilIdle();
    // When b2 ends, the walk reaches A first (A never gave a split, so it kept its place).
    // A task joining the rotation when its first leaf waited would have put A behind B: b4 first.
    const [b1, b2, b3] = b123 as [number, number, number];
    const [b4, b5] = b45 as [number, number];
    const [a1, a2] = a12 as [number, number];
    expect(firstDispatchOrder(ex.spans.read(0).columns)).toEqual([b1, b2, b3, a1, a2, b4, b5]);
  });
});

describe("Trino's per-task maxDriversPerTask (addTask)", () => {
  it('testUserSpecifiedMaxDriversPerTask: a task limited to 1 runs its leaf splits one at a time', () => {
    // Engine: 4 runners, minDrivers 16, 2 guaranteed and at most 4 per task; the task says 1.
    const { sim, ex } = simRig({
      workers: 4,
      quantumMs: 10,
      minDrivers: 16,
      guaranteedPerTask: 2,
      maxDriversPerTask: 4,
    });
    ex.submitJob({ class: 'q', tasks: [{ splits: leaves(4, spin(30)), maxDriversPerTask: 1 }] });
    ex.submitJob({ class: 'r', tasks: [{ splits: leaves(8, spin(30)) }] });
    sim.runUntilIdle();
    const drivers = maxDriversByTask(ex.spans.read(0).columns);
    expect(drivers.get(1)).toBe(1); // its own limit, which lowers its guarantee of 2 as well
    expect(drivers.get(2)).toBe(4); // a task without one keeps the engine's
    expect(ex.counters.succeeded).toBe(2);
  });

  it("rejects a task's maxDriversPerTask above the engine's, naming both", () => {
    const { ex } = simRig({ maxDriversPerTask: 8 });
    const job = {
      class: 'q',
      tasks: [{ splits: leaves(1, spin(1)) }, { splits: [], maxDriversPerTask: 9 }],
    };
    expect(() => ex.submitJob(job)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        field: 'tasks[1].maxDriversPerTask',
        message: "tasks[1].maxDriversPerTask 9 must be <= the engine's maxDriversPerTask 8",
      }),
    );
    expect(ex.counters.submitted).toBe(0);
  });

  it('rejects guaranteedPerTask above maxDriversPerTask, as Trino does, naming both', () => {
    const err = expect.objectContaining({
      code: 'INVALID_CONFIG',
      field: 'guaranteedPerTask',
      message: 'guaranteedPerTask 3 must be <= maxDriversPerTask 2',
    });
    expect(() => simRig({ guaranteedPerTask: 3, maxDriversPerTask: 2 })).toThrow(err);
    const { ex } = simRig({ guaranteedPerTask: 3, maxDriversPerTask: 8 });
    expect(() => ex.configure({ maxDriversPerTask: 2 })).toThrow(err);
    expect(ex.config.maxDriversPerTask).toBe(8); // nothing applied
  });
});
