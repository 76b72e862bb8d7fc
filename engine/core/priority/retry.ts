/**
 * Retries of a failed PRIO task (docs/design.md §3.2): at most `maxRetries`, each after a deterministic
 * exponential backoff `min(backoffCapNanos, backoffBaseNanos · backoffFactor^(retry − 1))`. No
 * jitter: the simulator must replay a run exactly, and a single engine has no herd to spread.
 */
import { mergeConfig, type Check } from './config.ts';

const SECOND = 1_000_000_000;

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly backoffBaseNanos: number;
  readonly backoffFactor: number;
  readonly backoffCapNanos: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 3,
  backoffBaseNanos: SECOND,
  backoffFactor: 2,
  backoffCapNanos: 60 * SECOND,
});

const finiteAtLeast =
  (min: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min
      ? null
      : `must be a finite number >= ${min}`;

const RETRY_CHECKS: Record<keyof RetryPolicy, Check> = {
  maxRetries: (v) =>
    Number.isSafeInteger(v) && (v as number) >= 0 ? null : 'must be an integer >= 0',
  backoffBaseNanos: finiteAtLeast(0),
  backoffFactor: finiteAtLeast(1),
  backoffCapNanos: finiteAtLeast(0),
};

/** `DEFAULT_RETRY_POLICY` with `partial` applied; `INVALID_CONFIG` naming the field otherwise. */
export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  return mergeConfig(DEFAULT_RETRY_POLICY, partial, RETRY_CHECKS);
}

/** Delay before retry number `retry` (1 = the first retry). */
export function backoffNanos(retry: number, policy: RetryPolicy): number {
  const delay = policy.backoffBaseNanos * Math.pow(policy.backoffFactor, Math.max(0, retry - 1));
  return Math.min(policy.backoffCapNanos, delay);
}
