/**
 * Checks of a PRIO priority (docs/design.md §3.2): an integer in 0..100. The bands priorities fall
 * in are `shared/lib/priority-bands.ts`.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { PRIORITY_MAX, PRIORITY_MIN } from '../../../shared/lib/priority-bands.ts';

export function isValidPriority(priority: number): boolean {
  return Number.isInteger(priority) && priority >= PRIORITY_MIN && priority <= PRIORITY_MAX;
}

/** Throws `INVALID_ARGUMENT` naming `field` unless `priority` is an integer in 0..100. */
export function assertPriority(priority: number, field = 'priority'): void {
  if (!isValidPriority(priority)) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `${field} must be an integer in ${PRIORITY_MIN}..${PRIORITY_MAX}, got ${String(priority)}`,
      field,
    );
  }
}
