/**
 * A worker node runs a user module only from the directories it was started with
 * (`schedlab worker --modules DIR`): the coordinator — or anyone who can write to its Redis —
 * names the module of a split, and a node must not import arbitrary files for it. No directory
 * given: no user module runs on the node (built-in kernels always do).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchedLabError } from '../../../shared/errors.ts';
import type { ModuleRef } from '../backend.ts';

/** The real paths of `dirs` (a missing directory is an error naming it). */
export function resolveModuleDirs(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    try {
      return realpathSync(resolve(dir));
    } catch {
      throw new SchedLabError('INVALID_ARGUMENT', `--modules ${dir}: no such directory`, 'modules');
    }
  });
}

/** Null when `ref` may run here, else why not. */
export function moduleRefusal(ref: ModuleRef, dirs: readonly string[]): string | null {
  let path: string;
  try {
    path = ref.module.startsWith('file:') ? fileURLToPath(ref.module) : ref.module;
    if (!isAbsolute(path))
      return `module must be an absolute path or a file URL, got ${ref.module}`;
    path = realpathSync(path);
  } catch {
    return `module ${ref.module} does not exist on this node`;
  }
  if (dirs.some((dir) => path.startsWith(dir + sep))) return null;
  const allowed = dirs.length === 0 ? 'none were given' : dirs.join(', ');
  return `module ${ref.module} is outside this node's --modules directories (${allowed})`;
}
