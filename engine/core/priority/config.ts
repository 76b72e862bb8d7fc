/**
 * Knobs of the PRIO queue (docs/design.md §3.2). Every knob is live: `configure(partial)` validates the
 * whole partial first (a coded `INVALID_CONFIG` error naming the field) and only then applies it,
 * so a bad value never leaves the queue half-changed.
 */
import { invalidConfig } from '../../../shared/errors.ts';
import type { AgingKnobs } from './aging.ts';
import { PRIORITY_MAX } from '../../../shared/lib/priority-bands.ts';

const SECOND = 1_000_000_000;

export interface PriorityQueueConfig extends AgingKnobs {
  /**
   * Quota alternative to aging: after this many consecutive dequeues from the queue's top band,
   * the next dequeue takes the oldest entry of a lower band. 0 turns it off.
   */
  readonly quotaBurst: number;
  /** Compaction runs when dead entries exceed `max(compactionMin, live)`. */
  readonly compactionMin: number;
  /** Live entries allowed; a push beyond it throws `QueueFullError` and is counted. */
  readonly maxQueued: number;
}

export const DEFAULT_PRIORITY_QUEUE_CONFIG: PriorityQueueConfig = Object.freeze({
  aging: true,
  agingAfterNanos: 60 * SECOND,
  agingStepNanos: 30 * SECOND,
  agingCap: 20,
  quotaBurst: 0,
  compactionMin: 1024,
  maxQueued: 1 << 20,
});

type Check = (value: unknown) => string | null;

const nonNegative: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? null : 'must be a finite number >= 0';
const positive: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? null : 'must be a finite number > 0';
const integerAtLeast =
  (min: number): Check =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min ? null : `must be an integer >= ${min}`;
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');

const QUEUE_CHECKS: Record<keyof PriorityQueueConfig, Check> = {
  aging: boolean,
  agingAfterNanos: nonNegative,
  agingStepNanos: positive,
  agingCap: (v) =>
    Number.isInteger(v) && (v as number) >= 0 && (v as number) <= PRIORITY_MAX
      ? null
      : `must be an integer in 0..${PRIORITY_MAX}`,
  quotaBurst: integerAtLeast(0),
  compactionMin: integerAtLeast(0),
  maxQueued: integerAtLeast(1),
};

/**
 * Validates `partial` against `checks` (unknown fields are errors too: a misspelt knob must not
 * be silently ignored) and returns `base` with it applied.
 */
export function mergeConfig<C extends object>(
  base: C,
  partial: Partial<C>,
  checks: Record<keyof C, Check>,
): C {
  for (const [field, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    const check = (checks as Record<string, Check | undefined>)[field];
    if (check === undefined) throw invalidConfig(field, 'is not a known setting');
    const problem = check(value);
    if (problem !== null) throw invalidConfig(field, `${problem}, got ${String(value)}`);
  }
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [field, value] of Object.entries(partial)) {
    if (value !== undefined) merged[field] = value;
  }
  return Object.freeze(merged) as C;
}

export function mergeQueueConfig(
  base: PriorityQueueConfig,
  partial: Partial<PriorityQueueConfig>,
): PriorityQueueConfig {
  return mergeConfig(base, partial, QUEUE_CHECKS);
}

export { QUEUE_CHECKS, type Check };
