// Trino's executor statistics (TimeSharingTaskExecutor's leafSplitsSize, blocked and unblocked
// quanta wall time, runningTasksLevelN / completedTasksLevelN), in frames and reports alike.
import { describe, expect, it } from 'vitest';
import { Executor } from '../../runtime/executor/index.ts';
import { intermediates, leaves, MS, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { Session } from '../session/session.ts';
import { parseWorkload } from '../../../shared/workload.ts';
import { RunCollector } from './collector.ts';
import { runWorkload } from './run-workload.ts';

function rig(config: ConstructorParameters<typeof Executor>[1]) {
  const sim = new SimBackend({ workers: 4, seed: 1 });
  const ex = new Executor(sim, config);
  const collector = new RunCollector(ex, [], 0, null);
  return { sim, ex, collector };
}

describe("Trino's executor statistics", () => {
  it('testLeafSplitsSize: leaf splits admitted, weighted by how long each count lasted', () => {
    const { sim, ex, collector } = rig({
      workers: 4,
      quantumMs: 1000,
      guaranteedPerTask: 2,
      minDrivers: 1,
    });
    ex.submitJob(oneTaskJob('a', leaves(2, spin(100))));
    expect(collector.executorStats.read().leafSplits).toEqual({ now: 2, max: 2, mean: 2 });
    sim.runUntil(50 * MS);
    ex.submitJob(oneTaskJob('b', leaves(1, spin(100))));
    sim.runUntilIdle();
    // 2 for 50 ms, 3 for 50 ms, 1 for 50 ms, then none: a mean of 2 over the 150 ms.
    expect(sim.now()).toBe(150 * MS);
    expect(collector.executorStats.read().leafSplits).toEqual({ now: 0, max: 3, mean: 2 });
  });

  it("a report's leaf-split mean is weighted over its makespan, not past the run's end", async () => {
    const workload = {
      seed: 1,
      config: { workers: 1, quantumMs: 10, policy: 'fifo' as const },
      classes: [
        {
          name: 't',
          arrival: { kind: 'once' as const, atMs: 0 },
          splits: { leaf: 6 },
          work: { totalMs: 10 },
        },
      ],
    };
    const { report } = await runWorkload(parseWorkload(workload), { backend: 'sim' });
    // Six 10 ms leaves, one worker, three admitted at a time (guaranteedPerTask): 3, 3, 3, 3, 2, 1
    // for 10 ms each, over 60 ms: 2.5. Before: 1.5, the same area over 100 ms (read at the
    // simulator's step after the run).
    expect(report.makespanMs).toBe(60);
    expect(report.executorStats!.leafSplits.mean).toBe(2.5);
  });

  it('blocked and unblocked quanta wall time: each quantum by how it ended', () => {
    const { sim, ex, collector } = rig({ workers: 1, quantumMs: 10, policy: 'fifo' });
    // Calls of 10 ms that then block 5 ms: blocked, blocked, then the last call finishes.
    const io = spin(30, { perCallNanos: 10 * MS, blockedNanosPerCall: 5 * MS });
    ex.submitJob(oneTaskJob('io', intermediates(1, io)));
    ex.submitJob(oneTaskJob('cpu', intermediates(1, spin(25))));
    sim.runUntilIdle();
    const s = collector.executorStats.read();
    expect(s.blockedQuantumWallMs).toMatchObject({ count: 2, max: 10, mean: 10 });
    expect(s.unblockedQuantumWallMs).toMatchObject({ count: 4, max: 10, mean: 8.75 });
  });

  it('runningTasksLevelN and completedTasksLevelN: tasks by the level of their scheduled time', () => {
    const { sim, ex, collector } = rig({
      workers: 4,
      quantumMs: 10,
      levelThresholdsMs: [0, 15, 40, 1000, 2000],
    });
    for (const ms of [10, 20, 50]) ex.submitJob(oneTaskJob(`t${ms}`, intermediates(1, spin(ms))));
    sim.runUntil(30 * MS);
    // At 30 ms: t10 ended in L0; t20 ended at 20 ms in L1; t50 has run 30 ms: L1.
    expect(collector.executorStats.read().tasksPerLevel).toEqual({
      running: [0, 1, 0, 0, 0],
      completed: [1, 1, 0, 0, 0],
    });
    sim.runUntilIdle();
    expect(collector.executorStats.read().tasksPerLevel).toEqual({
      running: [0, 0, 0, 0, 0],
      completed: [1, 1, 1, 0, 0],
    });
  });

  it('frames carry the same figures as a report of the same run', () => {
    const config = { workers: 2, quantumMs: 5, guaranteedPerTask: 1 };
    const s = new Session({ config, seed: 3 });
    const { sim, ex, collector } = rig(config);
    for (let j = 0; j < 5; j++) {
      const job = oneTaskJob(`c${j % 2}`, leaves(3, spin(8 + 3 * j, { blockedNanosPerCall: MS })));
      s.executor.submitJob(job);
      ex.submitJob(job);
    }
    const frame = s.advance(40).at(-1)!;
    sim.runUntil(40 * MS);
    expect(frame.executorStats).toEqual(collector.executorStats.read());
    expect(frame.executorStats!.blockedQuantumWallMs.count).toBeGreaterThan(0);
  });
});
