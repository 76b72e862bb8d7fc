/**
 * The multilevel split queue's knobs (docs/design.md §3.1) and their validation. Every knob is live:
 * the queue re-validates on each setter, and a rejected value leaves the old one in place.
 */
import { SchedLabError, invalidConfig } from '../../../shared/errors.ts';

export const LEVEL_COUNT = 5;

const SECOND = 1_000_000_000;

/** Trino's `LEVEL_THRESHOLD_SECONDS`, in ns. */
export const DEFAULT_LEVEL_THRESHOLDS_NANOS: readonly number[] = Object.freeze(
  [0, 1, 10, 60, 300].map((s) => s * SECOND),
);
/** Trino's `LEVEL_CONTRIBUTION_CAP`: one quantum charges at most this much to the levels. */
export const DEFAULT_LEVEL_CONTRIBUTION_CAP_NANOS = 30 * SECOND;
export const DEFAULT_LEVEL_TIME_MULTIPLIER = 2;

export interface MultilevelSplitQueueOptions {
  /** m: each busy level gets m times the scheduled time of the next (must be > 1). */
  levelTimeMultiplier?: number;
  /** Five strictly increasing thresholds starting at 0 (ns of a group's scheduled time). */
  levelThresholdsNanos?: readonly number[];
  /** Cap on what one quantum contributes to the level times (ns, ≥ 0). */
  levelContributionCapNanos?: number;
}

export function checkLevelTimeMultiplier(m: number): number {
  if (typeof m !== 'number' || !Number.isFinite(m) || m <= 1) {
    throw invalidConfig('levelTimeMultiplier', `must be a finite number > 1 (got ${String(m)})`);
  }
  return m;
}

export function checkLevelThresholds(thresholds: readonly number[]): readonly number[] {
  const field = 'levelThresholdsNanos';
  if (!Array.isArray(thresholds) || thresholds.length !== LEVEL_COUNT) {
    throw invalidConfig(field, `must be an array of exactly ${LEVEL_COUNT} thresholds`);
  }
  if (thresholds[0] !== 0) throw invalidConfig(field, 'must start at 0');
  for (let i = 1; i < LEVEL_COUNT; i++) {
    const t = thresholds[i];
    if (typeof t !== 'number' || !Number.isFinite(t)) {
      throw invalidConfig(field, `[${i}] must be a finite number of ns (got ${String(t)})`);
    }
    if (t <= thresholds[i - 1]!) {
      throw invalidConfig(field, `must be strictly increasing ([${i}] = ${t})`);
    }
  }
  return Object.freeze([...thresholds]);
}

export function checkLevelContributionCap(capNanos: number): number {
  if (typeof capNanos !== 'number' || !Number.isFinite(capNanos) || capNanos < 0) {
    throw invalidConfig(
      'levelContributionCapNanos',
      `must be a finite number of ns ≥ 0 (got ${String(capNanos)})`,
    );
  }
  return capNanos;
}

/** A level index argument (not config: a caller's mistake, so INVALID_ARGUMENT). */
export function checkLevel(level: number): number {
  if (!Number.isInteger(level) || level < 0 || level >= LEVEL_COUNT) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `level must be an integer 0..${LEVEL_COUNT - 1} (got ${level})`,
      'level',
    );
  }
  return level;
}
