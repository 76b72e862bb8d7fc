/**
 * Trino's executor statistics as frames and reports show them (docs/metrics.md, "Executor
 * statistics"): the executor's own (leaf splits admitted over time, tasks per level) with the
 * wall time of every quantum, split by whether it ended blocked, summarised here (the one
 * histogram of reports and frames, summary-stats.ts). Cumulative since the session or run began.
 */
import type { ExecutorStatsRow } from '../../../shared/protocol.ts';
import type { Executor } from '../../runtime/executor/index.ts';
import { Summary } from './summary-stats.ts';

export class ExecutorStatsView {
  private readonly blocked = new Summary();
  private readonly unblocked = new Summary();

  constructor(private readonly executor: Executor) {
    executor.onQuantumWall((wall, blocked) =>
      (blocked ? this.blocked : this.unblocked).record(wall),
    );
  }

  /**
   * Times divided by `scale` (threads `timeScale`), so a report reads in workload time; the leaf
   * splits' mean up to `atNanos` (a report's end, not the simulator's step after it).
   */
  read(scale = 1, atNanos?: number): ExecutorStatsRow {
    const own = this.executor.executorStats(atNanos);
    const ms = (s: Summary) => ({ count: s.count, ...s.toMs(scale) });
    return {
      leafSplits: own.leafSplits,
      blockedQuantumWallMs: ms(this.blocked),
      unblockedQuantumWallMs: ms(this.unblocked),
      tasksPerLevel: own.tasksPerLevel,
    };
  }
}
