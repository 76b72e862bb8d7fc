/**
 * User modules (`kernel: { module, exportName }`) run code in the engine's own process, so they
 * load only from directories the operator allowed when starting (`schedlab serve --modules DIR`,
 * `schedlab run`'s workload directory): every module a workload names is resolved to its real
 * path (symlinks followed, `..` gone) and must lie inside one of those directories' real paths.
 * The checked workload names the real paths, so what runs is the file that was checked.
 *
 * Modules run on real workers — the threads backend, or cluster nodes, which load them from their
 * own `--modules` directories; on the simulator they are refused rather than ignored, and on
 * threads each is loaded once in a throwaway worker before the run (`probeModule`).
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchedLabError } from '../../../shared/errors.ts';
import { MAX_JSON_DEPTH } from '../../../shared/limits.ts';
import { fieldPath } from '../../../shared/schema-error.ts';
import { probeModule } from '../../runtime/threads/module-probe.ts';

interface ModuleRef {
  module: string;
  exportName?: string;
}

/** One module a document names, where it names it, and a way to point it at the checked file. */
export interface ModuleUse {
  readonly field: string;
  readonly ref: Readonly<ModuleRef>;
  set(path: string): void;
}

function isModuleRef(k: unknown): k is ModuleRef {
  return typeof k === 'object' && k !== null && typeof (k as ModuleRef).module === 'string';
}

/** `holder.kernel` when it names a module, as a use named from `path`; else nothing added. */
function addUse(uses: ModuleUse[], holder: unknown, path: readonly (string | number)[]): void {
  if (typeof holder !== 'object' || holder === null) return;
  const h = holder as { kernel?: unknown };
  const k = h.kernel;
  if (!isModuleRef(k)) return;
  uses.push({
    field: fieldPath([...path, 'kernel', 'module']),
    // The holder's kernel as it is now: after `set`, the checked path (a `file:` URL was probed
    // as the URL it had been, read as a path relative to the working folder).
    get ref() {
      return h.kernel as ModuleRef;
    },
    set: (p) => (h.kernel = { ...k, module: p }),
  });
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every `kernel: {module}` in a (cloned, editable) workload or bare graph document. */
export function moduleUses(doc: Record<string, unknown>): ModuleUse[] {
  const uses: ModuleUse[] = [];
  const visit = (holder: unknown, path: (string | number)[]) => addUse(uses, holder, path);
  list(doc['classes']).forEach((c, i) =>
    visit((c as { work?: unknown } | null)?.work, ['classes', i, 'work']),
  );
  const trino = doc['trino'] as { specs?: unknown } | undefined;
  list(trino?.specs).forEach((s, i) => visit(s, ['trino', 'specs', i]));
  const graphDoc = (g: unknown, path: (string | number)[]) => {
    visit(g, path);
    list((g as { nodes?: unknown } | null)?.nodes).forEach((n, i) =>
      visit(n, [...path, 'nodes', i]),
    );
  };
  if ('graph' in doc) {
    const g = doc['graph'];
    if (Array.isArray(g)) g.forEach((d, i) => graphDoc(d, ['graph', i]));
    else graphDoc(g, ['graph']);
  } else graphDoc(doc, []);
  return uses;
}

/**
 * Every `kernel: {module}` of a (cloned, editable) job's splits, named from `job` — a
 * `submitJob` command's, checked or not yet (the desktop app asks before the schema runs).
 */
export function jobModuleUses(job: unknown): ModuleUse[] {
  const uses: ModuleUse[] = [];
  list((job as { tasks?: unknown } | null)?.tasks).forEach((task, t) =>
    list((task as { splits?: unknown } | null)?.splits).forEach((split, i) =>
      addUse(uses, (split as { work?: unknown } | null)?.work, [
        'job',
        'tasks',
        t,
        'splits',
        i,
        'work',
      ]),
    ),
  );
  return uses;
}

/**
 * A job submitted by command, checked as a workload's modules are (`checkModules`): the same
 * directories, the same refusals. Returns the job to run (a copy when a module path changed).
 */
export function checkJobModules<T>(
  job: T,
  backend: 'sim' | 'threads' | 'cluster',
  dirs: readonly string[],
  probed: Set<string> = new Set(),
): Promise<T> {
  return checkUses(job, 'job', jobModuleUses, backend, dirs, probed);
}

/** The real paths of the allowed directories; a missing one or a file is an error naming it. */
export function allowedDirs(dirs: readonly string[], flag = '--modules'): string[] {
  return dirs.map((dir) => {
    let real: string;
    try {
      real = realpathSync(resolve(dir));
    } catch {
      throw new SchedLabError('INVALID_ARGUMENT', `${flag} ${dir}: no such directory`, flag);
    }
    if (!statSync(real).isDirectory())
      throw new SchedLabError('INVALID_ARGUMENT', `${flag} ${dir}: not a directory`, flag);
    return real;
  });
}

function modulePath(module: string): string | null {
  if (module.startsWith('file:')) {
    try {
      return fileURLToPath(module);
    } catch {
      return null;
    }
  }
  return isAbsolute(module) ? module : null;
}

/**
 * Points every module use at its real path, after checking it lies in `dirs` (real paths, see
 * `allowedDirs`); throws `MODULE_NOT_ALLOWED` or `MODULE_UNLOADABLE` naming the field.
 */
export function confineModules(uses: readonly ModuleUse[], dirs: readonly string[]): void {
  for (const use of uses) {
    const path = modulePath(use.ref.module);
    if (path === null)
      throw new SchedLabError(
        'MODULE_UNLOADABLE',
        `${use.field} must be an absolute path or a file: URL, got ${use.ref.module}`,
        use.field,
      );
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new SchedLabError('MODULE_UNLOADABLE', `${use.field}: no such file ${path}`, use.field);
    }
    if (!dirs.some((d) => real.startsWith(d.endsWith(sep) ? d : d + sep))) {
      const where =
        dirs.length === 0
          ? 'no module directory is allowed (start with --modules DIR)'
          : `allowed: ${dirs.join(', ')}`;
      throw new SchedLabError(
        'MODULE_NOT_ALLOWED',
        `${use.field}: ${path} is outside the module directories (${where})`,
        use.field,
      );
    }
    if (!statSync(real).isFile())
      throw new SchedLabError(
        'MODULE_UNLOADABLE',
        `${use.field}: ${path} is not a file`,
        use.field,
      );
    use.set(real);
  }
}

/** Modules need real threads: on the simulator a module kernel is refused, not ignored. */
export function refuseModulesOnSim(uses: readonly ModuleUse[]): void {
  const first = uses[0];
  if (first === undefined) return;
  throw new SchedLabError(
    'INVALID_WORKLOAD',
    `${first.field}: a user module runs on real workers (--backend threads or cluster), not on the simulator`,
    first.field,
  );
}

/**
 * Loads each distinct module once in a throwaway worker; the first failure is thrown. `passed`
 * holds the module exports that loaded before (a session's, for jobs submitted one by one: a
 * thread started for every `submitJob` otherwise), and gains those that load now; it is bounded.
 */
export async function probeModules(
  uses: readonly ModuleUse[],
  passed: Set<string> = new Set(),
): Promise<void> {
  for (const use of uses) {
    const exportName = use.ref.exportName ?? 'default';
    const key = `${use.ref.module}#${exportName}`;
    if (passed.has(key)) continue;
    const reason = await probeModule(use.ref.module, exportName);
    if (reason !== null)
      throw new SchedLabError(
        'MODULE_UNLOADABLE',
        `${use.field}: ${use.ref.module} ${reason}`,
        use.field,
      );
    if (passed.size >= MAX_PROBED) passed.clear();
    passed.add(key);
  }
}

/** Module exports a session remembers as loadable (a service names a handful). */
const MAX_PROBED = 1024;

/**
 * A workload (or bare graph document) checked for its backend: on threads its modules confined
 * to `dirs` (and pointed at their real paths) and loaded once; on the simulator any module is
 * refused. Returns the document to run (a copy when a module path changed).
 */
export async function checkModules<T>(
  doc: T,
  backend: 'sim' | 'threads' | 'cluster',
  dirs: readonly string[],
): Promise<T> {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
  return checkUses(doc, 'workload', (d) => moduleUses(d as Record<string, unknown>), backend, dirs);
}

/**
 * A copy to point at the checked files. The schemas hold the values in a document to
 * `MAX_JSON_DEPTH`, but a bare graph document is copied before its schema runs; a value too deep
 * to copy (a stack overflow) is its fault, coded, not an engine failure.
 */
function copyOf<T>(doc: T, whole: 'workload' | 'job'): T {
  try {
    return structuredClone(doc);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    const code = whole === 'job' ? 'INVALID_ARGUMENT' : 'INVALID_WORKLOAD';
    const message = `${whole} nests too deep to copy (values may nest at most ${MAX_JSON_DEPTH} deep)`;
    throw new SchedLabError(code, message, whole);
  }
}

/** The one check of both: refused on the simulator, confined to `dirs`, loaded once. */
async function checkUses<T>(
  doc: T,
  whole: 'workload' | 'job',
  usesOf: (doc: T) => ModuleUse[],
  backend: 'sim' | 'threads' | 'cluster',
  dirs: readonly string[],
  probed?: Set<string>,
): Promise<T> {
  // Looked for first on the document itself: most name no module and need no copy.
  if (usesOf(doc).length === 0) return doc;
  const copy = copyOf(doc, whole);
  const uses = usesOf(copy);
  if (backend === 'sim') refuseModulesOnSim(uses);
  confineModules(uses, dirs);
  // On a cluster the worker nodes load modules, each from its own `--modules` directories.
  if (backend !== 'cluster') await probeModules(uses, probed);
  return copy;
}
