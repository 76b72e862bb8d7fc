/** A workload by preset name or JSON file path, with `--set` edits applied, then validated. */
import { readFileSync } from 'node:fs';
import { parseWorkload, type Workload } from '../../shared/workload.ts';
import { isPreset, PRESET_NAMES, PRESETS } from '../core/workload/presets/index.ts';
import { applyWorkloadEdits, type Settings } from './settings.ts';
import { UsageError } from './usage-error.ts';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EISDIR')
      throw new UsageError(`${what} ${path}: is a directory, not a JSON file`);
    throw new UsageError(`${what} ${path}: no such file (presets: ${PRESET_NAMES.join(', ')})`);
  }
  try {
    // Editors on Windows save UTF-8 with a byte-order mark; JSON.parse would call it a syntax error.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
  } catch (e) {
    throw new UsageError(`${what} ${path}: not valid JSON (${(e as Error).message})`);
  }
}

export function loadWorkload(ref: string, edits: Settings['workload'] = []): Workload {
  const doc = isPreset(ref) ? structuredClone(PRESETS[ref]) : readJsonFile(ref, 'workload');
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UsageError(`workload ${ref}: must be a JSON object`);
  }
  applyWorkloadEdits(doc as Record<string, unknown>, edits);
  return parseWorkload(doc);
}
