/** The PRIO queue's argument checks and errors (docs/design.md §3.2), each naming its field. */
import { SchedLabError } from '../../../shared/errors.ts';
import { assertPriority } from './bands.ts';
import type { TaskId } from './queued-task.ts';
import { SEQUENCE_LIMIT } from './task-key.ts';

/** Throws `INVALID_ARGUMENT` for a priority outside 0..100 or a non-finite `readySince`. */
export function checkTask(priority: number, readySince: number): void {
  assertPriority(priority);
  if (!Number.isFinite(readySince)) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      'readySince must be a finite number of ns',
      'readySince',
    );
  }
}

export function checkSequenceLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > SEQUENCE_LIMIT) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `sequenceLimit must be an integer in 1..${SEQUENCE_LIMIT}, got ${String(limit)}`,
      'sequenceLimit',
    );
  }
}

export function checkTime(now: number): void {
  if (!Number.isFinite(now)) {
    throw new SchedLabError('INVALID_ARGUMENT', 'now must be a finite number of ns', 'now');
  }
}

export function duplicate(id: TaskId): SchedLabError {
  return new SchedLabError('DUPLICATE_ID', `id ${String(id)} is already queued`, 'id');
}
