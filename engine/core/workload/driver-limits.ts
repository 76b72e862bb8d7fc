/**
 * A workload's per-task driver limits against the engine's (Trino's `addTask` refuses a task
 * `maxDriversPerTask` above the configured one). Checked when a run's config is resolved, so a bad
 * document fails before the run starts rather than at its first submission.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Workload } from '../../../shared/workload.ts';

export function checkTaskDriverLimits(workload: Workload, config: EngineConfig): void {
  const limits: [string, number | undefined][] = [
    ...(workload.classes ?? []).map((c, i): [string, number | undefined] => [
      `classes[${i}].maxDriversPerTask`,
      c.maxDriversPerTask,
    ]),
    ...(workload.trino?.specs ?? []).map((s, i): [string, number | undefined] => [
      `trino.specs[${i}].maxDriversPerTask`,
      s.maxDriversPerTask,
    ]),
  ];
  for (const [field, max] of limits) {
    if (max !== undefined && max > config.maxDriversPerTask) {
      throw new SchedLabError(
        'INVALID_WORKLOAD',
        `${field} ${max} must be <= the engine's maxDriversPerTask ${config.maxDriversPerTask}`,
        field,
      );
    }
  }
}
