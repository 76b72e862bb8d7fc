// The Live view's Trino executor panel shows a frame's executor statistics and the split
// concurrency controller's tasks; nothing before the host sends them.
import { describe, expect, it } from 'vitest';
import type { ExecutorStatsRow, Frame } from '../../../shared/protocol.ts';
import { executorPanelRows } from './executor-panel.ts';

const p = (count: number, ms: number) => ({ count, p50: ms, p95: ms, p99: ms, max: ms, mean: ms });
const stats: ExecutorStatsRow = {
  leafSplits: { now: 3, max: 8, mean: 2.5 },
  blockedQuantumWallMs: p(2, 10),
  unblockedQuantumWallMs: p(40, 1500),
  tasksPerLevel: { running: [1, 2, 0, 0, 0], completed: [5, 0, 0, 0, 1] },
};

describe('executorPanelRows', () => {
  it('turns a frame into the panel rows, with the controller tasks when the frame has them', () => {
    const frame = {
      executorStats: stats,
      taskConcurrency: [
        {
          taskId: 4,
          jobId: 2,
          class: 'scan',
          runningLeaves: 2,
          waitingLeaves: 6,
          target: 3,
          utilization: 0.625,
        },
      ],
    } as unknown as Frame;
    const rows = executorPanelRows(frame)!;
    expect(rows.leafSplits).toBe('now 3 · max 8 · mean 2.5');
    expect(rows.quanta[0]).toEqual(['blocked', '2', '10.0 ms', '10.0 ms', '10.0 ms']);
    expect(rows.quanta[1]![0]).toBe('unblocked');
    expect(rows.quanta[1]![1]).toBe('40');
    expect(rows.levels).toEqual([
      ['running', '1', '2', '0', '0', '0'],
      ['completed', '5', '0', '0', '0', '1'],
    ]);
    expect(rows.tasks).toEqual([['4', 'scan', '2 / 3', '63%']]);
  });

  it('nothing without a frame or without statistics (an older host)', () => {
    expect(executorPanelRows(null)).toBeNull();
    expect(executorPanelRows({} as Frame)).toBeNull();
  });
});
