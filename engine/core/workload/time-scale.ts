/**
 * `timeScale` (threads backend): every time in a workload is multiplied by it, the engine's time
 * settings included, so a scaled run is the same experiment, only faster. This is the one place
 * that knows which settings are times; the run's config, the status lines' levels and Trino's
 * per-level summaries all read the result.
 */
import type { EngineConfig } from '../../../shared/config.ts';

/** Engine settings measured in time (ms): everything `timeScale` multiplies. */
export const TIMED_SETTINGS = [
  'quantumMs',
  'levelThresholdsMs',
  'levelContributionCapMs',
  'agingAfterMs',
  'agingStepMs',
  'agingIntervalMs',
  'retryBackoffMs',
  'retryBackoffMaxMs',
  'hardKillAfterMs',
  'runawayAfterMs',
  'splitConcurrencyAdjustMs',
] as const satisfies readonly (keyof EngineConfig)[];

/** Rounded to whole ns: 0.1 × 60 000 must read 6000, not 6000.000000000001. */
const times = (ms: number, scale: number) => Math.round(ms * scale * 1e6) / 1e6;

/**
 * The config (or a patch of it) with every time setting it holds multiplied by `scale` (the same
 * object when scale is 1).
 */
export function scaleConfigTimes<C extends Partial<EngineConfig>>(config: C, scale: number): C {
  if (scale === 1) return config;
  const out: Record<string, unknown> = { ...config };
  for (const key of TIMED_SETTINGS) {
    const v = config[key];
    if (v === undefined) continue;
    out[key] = Array.isArray(v) ? v.map((x) => times(x, scale)) : times(v, scale);
  }
  return out as C;
}
