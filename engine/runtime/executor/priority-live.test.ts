// Priorities while the engine runs: PRIO's aging counts time waiting, not time running
// (docs/design.md §3.2: `wait` is time ready but not running), a new aging interval applies at
// once, and `reprioritize` moves a queued split only where the policy orders by priority.
import { describe, expect, it } from 'vitest';
import type { JobSpec } from '../../../shared/job.ts';
import { MS, simRig } from './testing.ts';

const S = 1000 * MS;

function job(cls: string, basePriority: number, ms: number): JobSpec {
  return {
    class: cls,
    basePriority,
    tasks: [{ splits: [{ kind: 'intermediate', work: { kernel: 'spin', totalNanos: ms * MS } }] }],
  };
}

describe('PRIO aging under preemption', () => {
  it('a long split that has been running gains no urgency over a newcomer more urgent than it', () => {
    const { sim, ex, ends } = simRig({
      policy: 'priority',
      workers: 1,
      quantumMs: 1000,
      preemptive: true,
    });
    ex.submitJob(job('long', 50, 600_000));
    sim.runUntil(400 * S);
    ex.submitJob(job('urgent', 40, 100));
    sim.runUntilIdle();
    const urgent = ends.find((e) => e.class === 'urgent')!;
    // Before: the long split's clock ran from t = 0 while it ran, so at 400 s it was 11 steps
    // more urgent than its base and the urgent job waited 200 s behind it.
    expect((urgent.endNanos - urgent.submitNanos) / MS).toBeLessThanOrEqual(1100);
  });

  it('a split back from a quantum keeps the time it waited before it', () => {
    const { sim, ex } = simRig({
      policy: 'priority',
      workers: 1,
      quantumMs: 1000,
      preemptive: true,
      agingAfterMs: 60_000,
      agingStepMs: 10_000,
    });
    // `first` (more urgent) holds the worker for 100 s; `waits` waits all that time: 4 steps,
    // effective 46. It runs one quantum and is back with its 100 s, still ahead of a base-48 job
    // that came meanwhile — a clock restarted at each quantum would put it behind.
    ex.submitJob(job('first', 10, 100_000));
    ex.submitJob(job('waits', 50, 5_000));
    sim.runUntil(100 * S + 500 * MS);
    ex.submitJob(job('fresh', 48, 5_000));
    sim.runUntilIdle();
    const spans = ex.spans.read(0).columns;
    const classes: string[] = [];
    for (let i = 0; i < spans.start.length; i++) {
      const name = ex.jobRow(spans.job[i]!)?.class;
      if (name !== undefined && classes.at(-1) !== name) classes.push(name);
    }
    expect(classes).toEqual(['first', 'waits', 'fresh']);
  });
});

describe('PRIO aging from the first quantum', () => {
  it('a split dispatched the instant it was ready gains nothing for that quantum', () => {
    const { sim, ex } = simRig({
      policy: 'priority',
      workers: 1,
      quantumMs: 100,
      preemptive: true,
      agingAfterMs: 150,
      agingStepMs: 10,
      agingCap: 20,
      agingIntervalMs: 1,
    });
    // L runs 0–100 ms, H (more urgent) 100–200 while L waits 100 ms, under agingAfter: H goes on.
    // Before: L's clock counted its first quantum as waiting (dispatched at its ready time), so
    // at 200 ms it had "waited" 200 ms, aged to 55 and took the worker from H.
    ex.submitJob(job('L', 60, 1000));
    sim.runUntil(50 * MS);
    ex.submitJob(job('H', 57, 1000));
    sim.runUntil(300 * MS);
    expect(classRuns(ex).slice(0, 2)).toEqual(['L', 'H']);
    expect(classAt(ex, 250 * MS)).toBe('H');
  });

  it('a switch to priority ages a split only for the time it waited under the old policy', () => {
    const { sim, ex, ends } = simRig({
      policy: 'mlfq',
      workers: 1,
      quantumMs: 10,
      preemptive: true,
      agingAfterMs: 100,
      agingStepMs: 10,
      agingCap: 20,
      agingIntervalMs: 1,
    });
    // X has run alone since 0 and never waited; Y (more urgent) comes with the switch.
    // Before: X's clock was its submit time, so it aged to 40 at once and finished first.
    ex.submitJob(job('X', 60, 1050));
    sim.runUntil(995 * MS);
    ex.setPolicy('priority');
    ex.submitJob(job('Y', 50, 100));
    sim.runUntilIdle();
    expect(ends.map((e) => e.class)).toEqual(['Y', 'X']);
  });
});

type Rig = ReturnType<typeof simRig>['ex'];

/** The classes of the quanta in the order they ran, each run of one class once. */
function classRuns(ex: Rig): string[] {
  const spans = ex.spans.read(0).columns;
  const classes: string[] = [];
  for (let i = 0; i < spans.start.length; i++) {
    const name = ex.jobRow(spans.job[i]!)?.class;
    if (name !== undefined && classes.at(-1) !== name) classes.push(name);
  }
  return classes;
}

/** The class of the quantum running at `at` (ns). */
function classAt(ex: Rig, at: number): string | undefined {
  const spans = ex.spans.read(0).columns;
  for (let i = 0; i < spans.start.length; i++) {
    if (spans.start[i]! <= at && at < spans.end[i]!) return ex.jobRow(spans.job[i]!)?.class;
  }
  return undefined;
}

describe('PRIO aging interval changed live', () => {
  it('a shorter interval takes effect at once, not after the tick set with the old one', () => {
    const { sim, ex, ends } = simRig({
      policy: 'priority',
      workers: 1,
      quantumMs: 1000,
      agingAfterMs: 1000,
      agingStepMs: 100,
      agingCap: 100,
      agingIntervalMs: 3_600_000,
    });
    ex.submitJob(job('high', 10, 100));
    ex.submitJob(job('low', 60, 100));
    sim.runUntil(1);
    ex.configure({ agingIntervalMs: 50 });
    // A base-10 job every 100 ms keeps the worker busy; `low` runs once aged past 10: at about
    // 1 s + 50 steps of 100 ms = 6 s. Before: no tick for an hour, so it waited for them all.
    for (let t = 1; t < 600; t++) {
      sim.runUntil(t * 100 * MS - 1);
      ex.submitJob(job('high', 10, 100));
    }
    sim.runUntilIdle();
    const low = ends.find((e) => e.class === 'low')!;
    expect(low.endNanos / MS).toBeLessThan(7_000);
  });
});

describe('reprioritize under the policies that do not order by priority', () => {
  for (const policy of ['fifo', 'fair', 'mlfq'] as const) {
    it(`${policy}: a queued job keeps its place`, () => {
      const { sim, ex, ends } = simRig({ policy, workers: 1, quantumMs: 1000 });
      ex.submitJob(job('R', 50, 100));
      const ids = ['A', 'B', 'C', 'D'].map((c) => ex.submitJob(job(c, 50, 100)));
      sim.runUntil(10 * MS);
      ex.reprioritize(ids[1]!, 20);
      sim.runUntilIdle();
      // Before, under fifo: R A C D B — the change was a new arrival at the back.
      expect(ends.map((e) => e.class)).toEqual(['R', 'A', 'B', 'C', 'D']);
    });
  }
});
