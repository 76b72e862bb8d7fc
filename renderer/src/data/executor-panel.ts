/**
 * What the Live view's Trino executor panel shows of a frame (docs/metrics.md, "Executor
 * statistics" and "Split concurrency"): its statistics as table rows, and the split concurrency
 * controller's tasks. Pure, so the panel's content is tested without a DOM.
 */
import type { Frame } from '../../../shared/protocol.ts';
import { formatMs } from './gantt-viewport.ts';

export interface ExecutorPanelRows {
  /** `now 3 · max 8 · mean 2.4` */
  leafSplits: string;
  /** [label, quanta, p50, p95, max] */
  quanta: [string, string, string, string, string][];
  /** [label, L0, L1, …] */
  levels: string[][];
  /** [task, class, running / target, utilisation %] */
  tasks: [string, string, string, string][];
}

export function executorPanelRows(frame: Frame | null): ExecutorPanelRows | null {
  const x = frame?.executorStats;
  if (frame === null || x === undefined) return null;
  const q = (label: string, p: typeof x.blockedQuantumWallMs) =>
    [label, String(p.count), formatMs(p.p50), formatMs(p.p95), formatMs(p.max)] as [
      string,
      string,
      string,
      string,
      string,
    ];
  return {
    leafSplits: `now ${x.leafSplits.now} · max ${x.leafSplits.max} · mean ${x.leafSplits.mean}`,
    quanta: [q('blocked', x.blockedQuantumWallMs), q('unblocked', x.unblockedQuantumWallMs)],
    levels: [
      ['running', ...x.tasksPerLevel.running.map(String)],
      ['completed', ...x.tasksPerLevel.completed.map(String)],
    ],
    tasks: (frame.taskConcurrency ?? []).map((t) => [
      String(t.taskId),
      t.class,
      `${t.runningLeaves} / ${t.target}`,
      `${Math.round(t.utilization * 100)}%`,
    ]),
  };
}
