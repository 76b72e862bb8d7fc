/**
 * PRIO priorities and their reporting bands (docs/design.md §3.2): integers 0..100, smaller = more
 * urgent, grouped into five bands of twenty (the last one also holds 100) for telemetry and for
 * the quota alternative to aging.
 */
import { SchedLabError } from '../../../shared/errors.ts';

export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 100;
export const BAND_COUNT = 5;
const BAND_WIDTH = 20;

/** Band index 0..4 of a valid priority: 0–19 → 0, …, 80–100 → 4. */
export function bandOf(priority: number): number {
  const band = (priority / BAND_WIDTH) | 0;
  return band < BAND_COUNT ? band : BAND_COUNT - 1;
}

/** `p0-19`, `p20-39`, …, `p80-100`. */
export function bandLabel(band: number): string {
  const low = band * BAND_WIDTH;
  const high = band === BAND_COUNT - 1 ? PRIORITY_MAX : low + BAND_WIDTH - 1;
  return `p${low}-${high}`;
}

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
