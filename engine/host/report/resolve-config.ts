/**
 * The engine config a run uses: defaults ← the workload's `config` ← (threads only) the
 * workload's `threads` overrides ← the caller's overrides (`--set`, compare configs). Each layer
 * is validated on its own so an error names where the bad value came from
 * (`config.workers must be <= 256`, `levelTimeMultiplier must be > 1`). Every layer speaks
 * workload time; on threads the merged config's times are then multiplied by `timeScale`
 * (engine/core/workload/time-scale.ts), so quantum, thresholds and cap scale with the arrivals and
 * split costs.
 */
import {
  DEFAULT_ENGINE_CONFIG,
  engineConfigPatchSchema,
  engineConfigSchema,
  type EngineConfig,
  type EngineConfigPatch,
} from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { z } from 'zod';
import { schemaError } from '../../../shared/schema-error.ts';
import type { Workload } from '../../../shared/workload.ts';
import { checkTaskDriverLimits } from '../../core/workload/driver-limits.ts';
import { scaleConfigTimes } from '../../core/workload/time-scale.ts';
import { toSettings } from '../../runtime/executor/settings.ts';

export type BackendKind = 'sim' | 'threads';

export function checkConfigPatch(
  patch: unknown,
  prefix: readonly string[] = [],
): EngineConfigPatch {
  // Absent is no change; a file holding `null` is refused, not read as an empty config.
  const parsed = engineConfigPatchSchema.safeParse(patch === undefined ? {} : patch);
  if (!parsed.success) throw schemaError(parsed.error, 'INVALID_CONFIG', prefix);
  return parsed.data as EngineConfigPatch;
}

export function resolveConfig(
  workload: Workload,
  backend: BackendKind,
  overrides: EngineConfigPatch = {},
): EngineConfig {
  // The `threads` block is checked on every backend (it is applied on threads only), so a file
  // passes or fails alike wherever it runs: `threads.workers: 0` ran on sim and failed on threads.
  const threadsPatch = checkConfigPatch(workload.threads, ['threads']);
  const layers: [unknown, string[]][] = [[workload.config, ['config']]];
  if (backend === 'threads') layers.push([threadsPatch, ['threads']]);
  layers.push([overrides, []]);
  let merged: Record<string, unknown> = { ...DEFAULT_ENGINE_CONFIG };
  for (const [patch, prefix] of layers) {
    const checked = checkConfigPatch(patch, prefix);
    for (const [k, v] of Object.entries(checked))
      if (v !== undefined) merged = { ...merged, [k]: v };
  }
  const full = engineConfigSchema.safeParse(merged);
  if (!full.success) throw schemaError(full.error, 'INVALID_CONFIG');
  checkTaskDriverLimits(workload, full.data);
  if (backend !== 'threads') return full.data;
  const scaled = engineConfigSchema.safeParse(scaleConfigTimes(full.data, workload.timeScale));
  if (!scaled.success) throw timeScaleError(scaled.error, workload.timeScale);
  return scaled.data;
}

/**
 * What a workload changes in a running engine (the live app): its `config`, then on threads its
 * `threads` block, with times scaled by `timeScale` — each layer and the scaled result checked, so
 * a bad document throws before anything is applied.
 */
export function workloadPatch(workload: Workload, backend: BackendKind): EngineConfigPatch {
  const threads = backend === 'threads';
  const threadsPatch = checkConfigPatch(workload.threads, ['threads']); // checked everywhere
  const patch = {
    ...checkConfigPatch(workload.config, ['config']),
    ...(threads ? threadsPatch : {}),
  };
  if (!threads) return patch;
  const scaled = engineConfigPatchSchema.safeParse(scaleConfigTimes(patch, workload.timeScale));
  if (!scaled.success) throw timeScaleError(scaled.error, workload.timeScale);
  return scaled.data as EngineConfigPatch;
}

function timeScaleError(error: z.ZodError, timeScale: number): SchedLabError {
  const inner = schemaError(error, 'INVALID_CONFIG');
  return new SchedLabError(
    'INVALID_CONFIG',
    `timeScale ${timeScale} leaves ${inner.message} on threads`,
    'timeScale',
  );
}

/**
 * A task's level from its scheduled time (backend ns), by the executor's own thresholds (the
 * config's ms converted exactly as the executor converts them) and rule (docs/design.md §3.1).
 */
export function levelFunction(config: EngineConfig): (scheduledNanos: number) => number {
  const thresholds = toSettings(config).levelThresholdsNanos;
  return (scheduledNanos) => {
    for (let level = thresholds.length - 1; level > 0; level--) {
      if (scheduledNanos >= thresholds[level]!) return level;
    }
    return 0;
  };
}
