/**
 * The last engine configuration, remembered across launches as JSON in Electron's `userData`
 * folder. A file that is missing, unreadable or no longer valid is ignored (the defaults win),
 * never fatal: a config written by an older version must not stop the app from opening.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  engineConfigPatchSchema,
  type EngineConfig,
  type EngineConfigPatch,
} from '../shared/config.ts';
import { schemaError } from '../shared/schema-error.ts';

export const CONFIG_FILE = 'last-config.json';

export function loadLastConfig(
  dir: string,
  warn: (message: string) => void = () => {},
): EngineConfigPatch | null {
  let text: string;
  try {
    text = readFileSync(join(dir, CONFIG_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = engineConfigPatchSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data as EngineConfigPatch;
    warn(
      `ignoring ${CONFIG_FILE}: ${schemaError(parsed.error, 'INVALID_CONFIG', [], 'config').message}`,
    );
  } catch {
    warn(`ignoring ${CONFIG_FILE}: not valid JSON`);
  }
  return null;
}

/** Written to a temporary file and renamed, so a crash mid-write leaves the old file intact. */
export function saveLastConfig(dir: string, config: EngineConfig): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, CONFIG_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
