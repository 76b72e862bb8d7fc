/** One of Trino's per-second status lines, read off the executor and the controller. */
import type { Executor } from '../../runtime/executor/executor.ts';
import type { TrinoController } from '../../runtime/workload/trino-controller.ts';
import type { RunCollector } from './collector.ts';
import type { StatusSample } from './trino-stats.ts';

const MS = 1_000_000;

export function statusLine(
  executor: Executor,
  trino: TrinoController,
  collector: RunCollector,
  levelOf: (scheduledNanos: number) => number,
  elapsedNanos: number,
): StatusSample {
  const c = executor.counters;
  const running = trino.runningTasks();
  const tasksPerLevel = [0, 0, 0, 0, 0];
  for (const t of running) {
    const l = levelOf(collector.taskNanos.get(t.taskId) ?? 0);
    tasksPerLevel[l] = (tasksPerLevel[l] ?? 0) + 1;
  }
  const total =
    c.splitsWaiting + c.splitsQueued + c.splitsRunning + c.splitsBlocked + c.splitsRetrying;
  const intermediate = trino.liveIntermediateSplits;
  return {
    elapsedMs: Math.round(elapsedNanos / MS),
    splits: {
      total,
      running: c.splitsRunning,
      leaf: total - intermediate,
      intermediate,
      blocked: c.splitsBlocked,
      waiting: c.splitsQueued,
      completed: collector.splitsCompleted,
    },
    tasks: running.length,
    tasksPerLevel,
    selectionsPerLevel: executor.levels().map((l) => l.selections),
  };
}
