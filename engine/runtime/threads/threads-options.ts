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
