/**
 * The executor's side of Trino's split concurrency controller (engine/core/concurrency/): which
 * tasks have one, what they tell it, and what frames and reports show of it. A task gets a
 * controller when it is created while `initialSplitConcurrency` is set, or when the setting is
 * turned on while it lives; turning it off drops every task's controller (no limit again).
 */
import type { EngineConfig } from '../../../shared/config.ts';
import type { TaskConcurrencyRow } from '../../../shared/protocol.ts';
import { OutputBuffer, type OutputBufferSpec } from '../../core/concurrency/output-buffer.ts';
import { SplitConcurrencyController } from '../../core/concurrency/split-concurrency-controller.ts';
import type { ExecTask } from './records.ts';
import type { EngineSettings } from './settings.ts';

/** Rows a frame carries at most (the first live tasks by id). */
export const CONCURRENCY_ROWS_MAX = 64;

/** Gives a new task its buffer and, when the setting is on, its controller. */
export function initTaskConcurrency(
  task: ExecTask,
  buffer: OutputBufferSpec | undefined,
  cfg: EngineConfig,
  settings: EngineSettings,
  now: number,
): void {
  if (buffer !== undefined) task.buffer = new OutputBuffer(buffer, now);
  if (cfg.initialSplitConcurrency !== null) {
    const initial = cfg.initialSplitConcurrency;
    task.concurrency = new SplitConcurrencyController(
      initial,
      settings.splitConcurrencyAdjustNanos,
    );
  }
}

/** The setting changed live: live tasks gain a fresh controller, or lose theirs. */
export function retargetTasks(
  tasks: Iterable<ExecTask>,
  cfg: EngineConfig,
  settings: EngineSettings,
): void {
  for (const task of tasks) {
    task.concurrency =
      cfg.initialSplitConcurrency === null
        ? null
        : new SplitConcurrencyController(
            cfg.initialSplitConcurrency,
            settings.splitConcurrencyAdjustNanos,
          );
  }
}

/** A quantum of a split of `task` ended, charging `charged` ns (Trino's `addScheduledNanos`). */
export function quantumOfTask(
  task: ExecTask,
  leaf: boolean,
  ran: number,
  charged: number,
  now: number,
): void {
  if (leaf) task.buffer?.produced(ran, now);
  task.concurrency?.update(charged, task.utilization(now), task.admittedLeaves);
}

/**
 * A split of `task` that ran `splitNanos` in all finished (Trino's `splitComplete`, told before
 * the split leaves the task's running leaves); true when the target moved.
 */
export function splitOfTaskFinished(task: ExecTask, splitNanos: number, now: number): boolean {
  const c = task.concurrency;
  if (c === null) return false;
  const before = c.targetConcurrency;
  c.splitFinished(splitNanos, task.utilization(now), task.admittedLeaves);
  return c.targetConcurrency !== before;
}

/** The first live tasks with a controller, by id: what frames show. */
export function concurrencyRows(
  tasks: Iterable<ExecTask>,
  now: number,
  max = CONCURRENCY_ROWS_MAX,
): TaskConcurrencyRow[] {
  const rows: TaskConcurrencyRow[] = [];
  for (const t of tasks) {
    if (rows.length >= max) break;
    if (t.concurrency === null) continue;
    rows.push({
      taskId: t.id,
      jobId: t.job.id,
      class: t.job.cls,
      runningLeaves: t.admittedLeaves,
      waitingLeaves: t.waitingCount,
      target: t.concurrency.targetConcurrency,
      utilization: Math.round(t.utilization(now) * 1000) / 1000,
    });
  }
  return rows;
}

/**
 * Per class (the span ring's class index, so bounded): the target of each of its tasks when it
 * ended (a report's `classes[].targetConcurrency`).
 */
export class TargetsByClass {
  private readonly byClass = new Map<
    number,
    { tasks: number; min: number; max: number; sum: number }
  >();

  taskEnded(task: ExecTask): void {
    addTarget(this.byClass, task);
  }

  /**
   * Class name → tasks counted, and their targets' min, mean (3 decimals) and max: the ended
   * tasks' targets when they ended and the `live` ones' now.
   */
  summary(
    name: (clsIndex: number) => string,
    live: Iterable<ExecTask>,
  ): Map<string, TargetSummary> {
    const all = new Map<number, Accumulated>();
    for (const [k, r] of this.byClass) all.set(k, { ...r });
    for (const t of live) addTarget(all, t);
    const out = new Map<string, TargetSummary>();
    for (const [cls, r] of all) {
      const mean = Math.round((r.sum / r.tasks) * 1000) / 1000;
      out.set(name(cls), { tasks: r.tasks, min: r.min, mean, max: r.max });
    }
    return out;
  }
}

export interface TargetSummary {
  tasks: number;
  min: number;
  mean: number;
  max: number;
}

interface Accumulated {
  tasks: number;
  min: number;
  max: number;
  sum: number;
}

function addTarget(byClass: Map<number, Accumulated>, task: ExecTask): void {
  if (task.concurrency === null) return;
  const target = task.concurrency.targetConcurrency;
  const row = byClass.get(task.job.clsIndex);
  if (row === undefined) {
    byClass.set(task.job.clsIndex, { tasks: 1, min: target, max: target, sum: target });
    return;
  }
  row.tasks++;
  row.min = Math.min(row.min, target);
  row.max = Math.max(row.max, target);
  row.sum += target;
}
