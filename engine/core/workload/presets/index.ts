/**
 * The presets shipped with SchedLab (docs/design.md §5), by name. Presets are plain workload
 * documents: `parseWorkload(preset)` validates them like any file a user loads.
 */
import type { PresetInfo } from '../../../../shared/protocol.ts';
import {
  isGraphWorkload,
  parseWorkload,
  type Workload,
  type WorkloadInput,
} from '../../../../shared/workload.ts';
import { SchedLabError } from '../../../../shared/errors.ts';
import { batchService } from './batch-service.ts';
import { diamond, randomLayeredDag, taskflowShapes } from './graphs.ts';
import { interactiveVsScan } from './interactive-vs-scan.ts';
import { noisyTenants } from './noisy-tenants.ts';
import {
  trinoMisbehavingQuanta,
  trinoOverloaded,
  trinoStarveSlow,
  trinoWithinLevelFairness,
} from './trino.ts';

export const PRESETS: Readonly<Record<string, WorkloadInput>> = Object.freeze({
  'interactive-vs-scan': interactiveVsScan,
  'batch-service': batchService,
  'noisy-tenants': noisyTenants,
  'trino-overloaded': trinoOverloaded,
  'trino-starve-slow': trinoStarveSlow,
  'trino-misbehaving-quanta': trinoMisbehavingQuanta,
  'trino-within-level-fairness': trinoWithinLevelFairness,
  diamond,
  'random-layered-dag': randomLayeredDag,
  'taskflow-shapes': taskflowShapes,
});

export const PRESET_NAMES = Object.keys(PRESETS);

/** Every preset and whether it is a task graph: what a host with presets offers in its snapshot. */
export const PRESET_INFOS: readonly PresetInfo[] = PRESET_NAMES.map((name) => ({
  name,
  graph: isGraphWorkload(PRESETS[name]),
}));

export function isPreset(name: string): boolean {
  return Object.hasOwn(PRESETS, name);
}

/** A preset, validated; `UNKNOWN_PRESET` names the alternatives. */
export function loadPreset(name: string): Workload {
  const preset = isPreset(name) ? PRESETS[name] : undefined;
  if (preset === undefined) {
    throw new SchedLabError(
      'UNKNOWN_PRESET',
      `preset "${name}" is not one of ${PRESET_NAMES.join(', ')}`,
      'preset',
    );
  }
  return parseWorkload(preset);
}
