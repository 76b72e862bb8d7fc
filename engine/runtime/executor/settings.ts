/**
 * The executor's view of `EngineConfig`: the same knobs in integer nanoseconds. Validation lives
 * in the zod schema of shared/config.ts; a failure becomes `INVALID_CONFIG` naming the field.
 */
import type { z } from 'zod';
import {
  engineConfigPatchSchema,
  engineConfigSchema,
  type EngineConfig,
} from '../../../shared/config.ts';
import { HARD_KILL_FLOOR_NANOS } from '../backend.ts';
import type { SchedLabError } from '../../../shared/errors.ts';
import { schemaError } from '../../../shared/schema-error.ts';

const NS_PER_MS = 1_000_000;

/** The quantum of a non-preemptive dispatch: long enough to finish any split (~11.6 days). */
export const RUN_TO_COMPLETION_NANOS = 1e15;

export interface EngineSettings {
  readonly quantumNanos: number;
  /** What a dispatch gets: the quantum, or run-to-completion for non-preemptive PRIO. */
  readonly dispatchQuantumNanos: number;
  readonly levelThresholdsNanos: readonly number[];
  readonly levelContributionCapNanos: number;
  readonly agingAfterNanos: number;
  readonly agingStepNanos: number;
  readonly agingIntervalNanos: number;
  readonly retryBackoffNanos: number;
  readonly retryBackoffMaxNanos: number;
  /** `minDrivers` resolved against the worker count. */
  readonly minDrivers: number;
  /** `hardKillAfterMs` resolved: 0 (auto) is max(10 × quantum, 5 s). */
  readonly hardKillNanos: number;
  readonly runawayNanos: number;
  readonly splitConcurrencyAdjustNanos: number;
}

export function toNanos(ms: number): number {
  return Math.round(ms * NS_PER_MS);
}

export function toSettings(c: EngineConfig): EngineSettings {
  const quantumNanos = Math.max(1, toNanos(c.quantumMs));
  return {
    quantumNanos,
    dispatchQuantumNanos:
      c.policy === 'priority' && !c.preemptive ? RUN_TO_COMPLETION_NANOS : quantumNanos,
    levelThresholdsNanos: c.levelThresholdsMs.map(toNanos),
    levelContributionCapNanos: toNanos(c.levelContributionCapMs),
    agingAfterNanos: toNanos(c.agingAfterMs),
    agingStepNanos: Math.max(1, toNanos(c.agingStepMs)),
    agingIntervalNanos: Math.max(1, toNanos(c.agingIntervalMs)),
    retryBackoffNanos: toNanos(c.retryBackoffMs),
    retryBackoffMaxNanos: toNanos(c.retryBackoffMaxMs),
    minDrivers: c.minDrivers ?? 2 * c.workers,
    hardKillNanos:
      c.hardKillAfterMs > 0
        ? Math.max(1, toNanos(c.hardKillAfterMs))
        : Math.max(10 * quantumNanos, HARD_KILL_FLOOR_NANOS),
    runawayNanos: toNanos(c.runawayAfterMs),
    splitConcurrencyAdjustNanos: toNanos(c.splitConcurrencyAdjustMs),
  };
}

/** What an error about a whole message, rather than one of its fields, is called. */
const WHOLE: Record<'INVALID_CONFIG' | 'BAD_MESSAGE' | 'INVALID_ARGUMENT', string> = {
  INVALID_CONFIG: 'config',
  BAD_MESSAGE: 'command',
  INVALID_ARGUMENT: 'options',
};

/**
 * The first zod issue as a coded error naming the field the way workload and CLI errors do
 * (`levelThresholdsMs[2] must be > the previous threshold`): one formatter, shared/schema-error.ts.
 */
export function zodToError(
  error: z.ZodError,
  code: 'INVALID_CONFIG' | 'BAD_MESSAGE' | 'INVALID_ARGUMENT',
  prefix: readonly PropertyKey[] = [],
): SchedLabError {
  return schemaError(error, code, prefix, WHOLE[code]);
}

/** Validates `patch` against the schema and merges it into `current`. */
export function mergeConfig(current: EngineConfig, patch: unknown): EngineConfig {
  const parsed = engineConfigPatchSchema.safeParse(patch === undefined ? {} : patch); // null: refused
  if (!parsed.success) throw zodToError(parsed.error, 'INVALID_CONFIG');
  const merged = { ...current };
  for (const [k, v] of Object.entries(parsed.data)) {
    if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  }
  const full = engineConfigSchema.safeParse(merged);
  if (!full.success) throw zodToError(full.error, 'INVALID_CONFIG');
  return full.data;
}
