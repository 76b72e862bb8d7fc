/**
 * What callers hand the executor (docs/design.md §1): a job of tasks of splits, as defined by the
 * schemas of shared/job.ts. Checked at the door with errors naming the field
 * (`tasks[0].splits[2].work.totalNanos`), then trusted inside.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import {
  jobSpecSchema,
  splitSpecsSchema,
  type JobSpec,
  type SplitSpec,
} from '../../../shared/job.ts';
import { schemaError } from '../../../shared/schema-error.ts';

export type { JobSpec, SplitSpec, TaskSpec } from '../../../shared/job.ts';

/** Throws `INVALID_ARGUMENT` naming the first bad field of `spec`. */
export function checkJobSpec(spec: JobSpec, engineMaxDriversPerTask: number): void {
  const parsed = jobSpecSchema.safeParse(spec);
  if (!parsed.success) throw schemaError(parsed.error, 'INVALID_ARGUMENT', [], 'job');
  spec.tasks.forEach((t, i) => {
    const max = t.maxDriversPerTask;
    // Trino's `addTask` check: a task's own driver limit never exceeds the engine's.
    if (max !== undefined && max > engineMaxDriversPerTask) {
      const field = `tasks[${i}].maxDriversPerTask`;
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `${field} ${max} must be <= the engine's maxDriversPerTask ${engineMaxDriversPerTask}`,
        field,
      );
    }
  });
}

/** Throws `INVALID_ARGUMENT` naming the first bad field of `splits` (`splits[2].kind`). */
export function checkSplits(splits: readonly SplitSpec[]): void {
  const parsed = splitSpecsSchema.safeParse(splits);
  if (!parsed.success) throw schemaError(parsed.error, 'INVALID_ARGUMENT', ['splits'], 'splits');
}
