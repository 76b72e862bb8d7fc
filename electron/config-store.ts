/**
 * The last engine configuration, remembered across launches as JSON in Electron's `userData`
 * folder. A file that is missing, unreadable or no longer valid is ignored (the defaults win),
 * never fatal: a config written by an older version must not stop the app from opening. Beside it,
 * the folders the user allowed user modules from.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  engineConfigPatchSchema,
  type EngineConfig,
  type EngineConfigPatch,
} from '../shared/config.ts';
import { schemaError } from '../shared/schema-error.ts';
import { allowedDirs } from '../engine/host/report/user-modules.ts';

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
  writeAtomically(dir, CONFIG_FILE, config);
}

function writeAtomically(dir: string, name: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

export const MODULE_DIRS_FILE = 'module-dirs.json';

/**
 * The directories the user allowed user modules from (module-consent.ts), as real paths. An
 * entry that is no longer a directory is dropped with a warning; a bad file counts as none.
 */
export function loadModuleDirs(dir: string, warn: (message: string) => void = () => {}): string[] {
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(join(dir, MODULE_DIRS_FILE), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(list)) {
    warn(`ignoring ${MODULE_DIRS_FILE}: not a list of folders`);
    return [];
  }
  const dirs: string[] = [];
  for (const entry of list) {
    try {
      if (typeof entry !== 'string') throw new Error('not a path');
      const [real] = allowedDirs([entry], MODULE_DIRS_FILE);
      if (real !== undefined && !dirs.includes(real)) dirs.push(real);
    } catch {
      warn(`${MODULE_DIRS_FILE}: dropping ${JSON.stringify(entry)}, not a folder (any more)`);
    }
  }
  return dirs;
}

export function saveModuleDirs(dir: string, dirs: readonly string[]): void {
  writeAtomically(dir, MODULE_DIRS_FILE, dirs);
}
