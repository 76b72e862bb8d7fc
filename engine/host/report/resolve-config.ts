/**
 * The engine config a run uses: defaults ← the workload's `config` ← (threads only) the
 * workload's `threads` overrides ← the caller's overrides (`--set`, compare configs). Each layer
 * is validated on its own so an error names where the bad value came from
 * (`config.workers must be <= 256`, `levelTimeMultiplier must be > 1`).
 */
import {
  DEFAULT_ENGINE_CONFIG,
  engineConfigPatchSchema,
  engineConfigSchema,
  type EngineConfig,
  type EngineConfigPatch,
} from '../../../shared/config.ts';
import { schemaError, type Workload } from '../../../shared/workload.ts';

export type BackendKind = 'sim' | 'threads';

export function checkConfigPatch(
  patch: unknown,
  prefix: readonly string[] = [],
): EngineConfigPatch {
  const parsed = engineConfigPatchSchema.safeParse(patch ?? {});
  if (!parsed.success) throw schemaError(parsed.error, 'INVALID_CONFIG', prefix);
  return parsed.data as EngineConfigPatch;
}

export function resolveConfig(
  workload: Workload,
  backend: BackendKind,
  overrides: EngineConfigPatch = {},
): EngineConfig {
  const layers: [unknown, string[]][] = [[workload.config, ['config']]];
  if (backend === 'threads') layers.push([workload.threads, ['threads']]);
  layers.push([overrides, []]);
  let merged: Record<string, unknown> = { ...DEFAULT_ENGINE_CONFIG };
  for (const [patch, prefix] of layers) {
    const checked = checkConfigPatch(patch, prefix);
    for (const [k, v] of Object.entries(checked))
      if (v !== undefined) merged = { ...merged, [k]: v };
  }
  const full = engineConfigSchema.safeParse(merged);
  if (!full.success) throw schemaError(full.error, 'INVALID_CONFIG');
  return full.data;
}

/** Highest level whose threshold the scheduled time has reached (DESIGN.md §3.1). */
export function levelOf(thresholdsMs: readonly number[], scheduledNanos: number): number {
  let level = 0;
  thresholdsMs.forEach((t, l) => {
    if (scheduledNanos >= t * 1e6) level = l;
  });
  return level;
}
