/**
 * What a host may set on a `ThreadsBackend`, its defaults, and the checks of the numbers it is
 * given (a bad one is a coded error naming its field).
 */
import type { ResourceLimits } from 'node:worker_threads';

/** Node's worker resource limits, for layers that may not import worker_threads themselves. */
export type { ResourceLimits };
import { invalidConfig, SchedLabError } from '../../../shared/errors.ts';

export const MAX_WORKERS = 256;

/**
 * Every worker's limits unless the host says otherwise: a user kernel that allocates without
 * bound then dies alone (its split fails `worker lost: … memory`, the worker is replaced) instead
 * of growing until the whole process is killed. Far above what a built-in kernel needs.
 */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 512 };

export interface ThreadsBackendOptions {
  /** Default: one per core (`os.availableParallelism()`). */
  readonly workers?: number;
  /**
   * Per worker, over `DEFAULT_RESOURCE_LIMITS` (each field given replaces the default's), e.g.
   * `{ maxOldGenerationSizeMb: 4096 }` for user work that needs a bigger heap.
   */
  readonly resourceLimits?: ResourceLimits;
  /** Seeds the draws of `failProbability` (fault-injection.ts); without it, `Math.random`. */
  readonly seed?: number;
}

/**
 * Each limit's range (MB). Below these floors a worker cannot start (measured on Node 20: an old
 * generation of 4 MB dies at boot, and a stack under 0.5 MB overflows while Node bootstraps the
 * thread, which takes the whole process down); a stack far above the ceiling cannot be made
 * (`EAGAIN`).
 */
export const RESOURCE_LIMIT_RANGES: Readonly<
  Record<keyof ResourceLimits, readonly [number, number]>
> = {
  maxOldGenerationSizeMb: [16, 1_048_576],
  maxYoungGenerationSizeMb: [1, 16_384],
  codeRangeSizeMb: [1, 4_096],
  stackSizeMb: [1, 256],
};

/** Checks a host's `resourceLimits`: an object of the four known limits, each in its range. */
export function checkResourceLimits(limits: unknown): ResourceLimits {
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
    throw invalidConfig('resourceLimits', 'must be an object of limits in MB');
  }
  for (const [key, value] of Object.entries(limits)) {
    const range = RESOURCE_LIMIT_RANGES[key as keyof ResourceLimits] as
      readonly [number, number] | undefined;
    const field = `resourceLimits.${key}`;
    if (range === undefined) {
      const known = Object.keys(RESOURCE_LIMIT_RANGES).join(', ');
      throw invalidConfig(field, `is not a worker limit (${known})`);
    }
    const [min, max] = range;
    if (typeof value !== 'number' || !(value >= min && value <= max)) {
      const range = `${min} to ${max.toLocaleString('en-US')}`;
      throw invalidConfig(field, `must be a number of MB from ${range}, got ${String(value)}`);
    }
  }
  return limits as ResourceLimits;
}

export function checkCount(count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) {
    throw invalidConfig('workers', `must be an integer from 1 to ${MAX_WORKERS}, got ${count}`);
  }
  return count;
}

/** A quantum cut (`shortenQuantum`): any length ≥ 0, in ns. */
export function checkCut(quantumNanos: number): number {
  if (typeof quantumNanos !== 'number' || Number.isNaN(quantumNanos) || quantumNanos < 0) {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      `quantumNanos must be a number ≥ 0, got ${String(quantumNanos)}`,
      'quantumNanos',
    );
  }
  return quantumNanos;
}
