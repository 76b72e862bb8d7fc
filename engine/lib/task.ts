/**
 * What `scheduler.run` runs: an export of the caller's own module (as Piscina's `filename`), or a
 * built-in kernel by name. Checked on the calling thread, so a typo is a coded error naming the
 * field at the call, not a failure later in a worker.
 *
 * A module's function is called as `fn(input, ctx)` in a worker thread (the contract in
 * engine/runtime/threads/user-module.ts):
 * - `ctx.shouldYield()` turns true when the run's quantum is used up or the run is cancelled:
 *   check it between small steps of long work;
 * - in an async function, `await ctx.yield()` between steps: at once while the quantum lasts;
 *   once it is used up the worker is given back and the call stays suspended in its thread, to
 *   continue there (the run is pinned to that worker) when the run is dispatched again;
 * - or return `{ yield: state }` to give the worker back — the run is queued again, and `state`
 *   is the `input` of its next call, perhaps on another worker;
 * - `ctx.signal` aborts when the run is cancelled (pass it to APIs that take one);
 * - return (or resolve to) anything else to finish: that is the run's result.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { invalidArgument } from '../../shared/errors.ts';
import { MAX_EXPORT_CHARS, MAX_MODULE_CHARS } from '../../shared/limits.ts';
import { KERNEL_NAMES } from '../../shared/workload.ts';
import type { KernelName, ModuleRef, SplitWork } from '../runtime/backend.ts';
import type { TaskContext } from '../runtime/threads/index.ts';

/** What a module's function is given as `ctx`: `shouldYield()`, `yield()`, `signal`, `quantumNanos`. */
export type { TaskContext };

/** An export of a module: `import(module)[export ?? 'default'](input, ctx)` in a worker. */
export interface ModuleTask {
  /** An absolute path or a `file:` URL. */
  readonly module: string | URL;
  /** Default `default`. */
  readonly export?: string;
}

/**
 * A built-in kernel: CPU work of a given length (`hash`, `sort`, `compress`, `matmul`, `spin`),
 * or `sleep` (I/O-like: the worker is free meanwhile). Its input is `{ ms }`.
 */
export type KernelTask = KernelName;

export type Task = ModuleTask | KernelTask;

/** The input of a built-in kernel: how long its work takes, in ms. */
export interface KernelInput {
  readonly ms: number;
}

/** The shape of a task function: a result, or `{ yield: state }` to continue later. */
export type TaskFunction<I = unknown, R = unknown> = (
  input: I,
  ctx: TaskContext,
) => R | { yield: I } | Promise<R | { yield: I }>;

const MAX_KERNEL_MS = 3_600_000;
/** Module files seen to exist (bounded; a service uses a handful). */
const seen = new Set<string>();
const MAX_SEEN = 1024;

/** Throws `INVALID_ARGUMENT` naming `field` unless `name` is absent or a non-empty string. */
export function checkExportName(name: unknown, field: string): asserts name is string | undefined {
  if (
    name !== undefined &&
    (typeof name !== 'string' || name.length === 0 || name.length > MAX_EXPORT_CHARS)
  ) {
    throw invalidArgument(field, `must be a string of 1 to ${MAX_EXPORT_CHARS} characters`);
  }
}

/** The split work of one run of `task` with `input`. */
export function taskWork(task: unknown, input: unknown): SplitWork {
  if (typeof task === 'string') return kernelWork(task, input);
  if (task === null || typeof task !== 'object') {
    throw invalidArgument('task', 'must be { module, export? } or a built-in kernel name');
  }
  const { module, export: exportName } = task as { module?: unknown; export?: unknown };
  checkExportName(exportName, 'task.export');
  const href = moduleHref(module);
  return { kernel: moduleRef(href, exportName), input, totalNanos: 0 }; // a module decides its end
}

/** One ref object per module export (bounded with `seen`): no object per run, found by identity. */
const refs = new Map<string, Map<string | undefined, ModuleRef>>();

function moduleRef(href: string, exportName: string | undefined): ModuleRef {
  let byExport = refs.get(href);
  if (byExport === undefined) {
    if (refs.size >= MAX_SEEN) refs.clear();
    byExport = new Map();
    refs.set(href, byExport);
  }
  let ref = byExport.get(exportName);
  if (ref === undefined) {
    if (byExport.size >= MAX_SEEN) byExport.clear();
    ref = exportName === undefined ? { module: href } : { module: href, exportName };
    byExport.set(exportName, ref);
  }
  return ref;
}

/**
 * A module's `file:` URL, checked: an absolute path or a `file:` URL of a file that exists, else
 * `INVALID_ARGUMENT` naming `field` (`Pool` checks its `filename` by it at construction).
 */
export function moduleHref(module: unknown, field = 'task.module'): string {
  let href: string;
  if (typeof module === 'string' && module.length > MAX_MODULE_CHARS)
    throw invalidArgument(field, `must be at most ${MAX_MODULE_CHARS} characters`);
  if (module instanceof URL) href = module.href;
  else if (typeof module === 'string' && isAbsolute(module)) href = pathToFileURL(module).href;
  else if (typeof module === 'string' && module.startsWith('file:')) href = module;
  else
    throw invalidArgument(
      field,
      `must be an absolute path or a file: URL, got ${typeof module === 'string' ? module : typeof module}`,
    );
  if (href.length > MAX_MODULE_CHARS)
    throw invalidArgument(field, `must be at most ${MAX_MODULE_CHARS} characters as a URL`);
  if (!href.startsWith('file:')) throw invalidArgument(field, `must be a file: URL, got ${href}`);
  if (!seen.has(href)) {
    let path: string;
    try {
      path = fileURLToPath(href); // a host (file://server/…), an encoded `/`, a stray `%`
    } catch (e) {
      throw invalidArgument(field, `${href} is not a file path: ${(e as Error).message}`);
    }
    if (!existsSync(path)) throw invalidArgument(field, `${href} does not exist`);
    if (!statSync(path).isFile()) throw invalidArgument(field, `${href} is not a file`);
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(href);
  }
  return href;
}

function kernelWork(name: string, input: unknown): SplitWork {
  if (!(KERNEL_NAMES as readonly string[]).includes(name)) {
    throw invalidArgument(
      'task',
      `must be a module task or one of ${KERNEL_NAMES.join(', ')}, got '${name}'`,
    );
  }
  const ms = (input as Partial<KernelInput> | null | undefined)?.ms;
  if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_KERNEL_MS)) {
    throw invalidArgument(
      'input.ms',
      `must be a number of ms from 0 to ${MAX_KERNEL_MS} for kernel ${name}`,
    );
  }
  return { kernel: name as KernelName, totalNanos: Math.round(ms * 1e6) };
}
