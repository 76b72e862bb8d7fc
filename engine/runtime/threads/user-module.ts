/**
 * A user's own function as a split's work (`SplitWork.kernel = { module, exportName }`).
 *
 * The contract, for authors of such modules:
 *
 *     export function myWork(input, ctx) { ... }
 *
 * - `ctx.shouldYield()` is true once the quantum (`ctx.quantumNanos`, or less if the executor cuts
 *   it short) is used up or the split is cancelled; call it between small steps of your work.
 * - `ctx.signal` aborts when the split is cancelled (pass it to APIs that take one).
 * - Return (or resolve to) a value to finish the split; the value is reported as the quantum's
 *   `result` (it must survive structured cloning).
 * - Or, in an async function, `await ctx.yield()` between steps: at once while the quantum lasts,
 *   else the quantum ends as a yield and the call continues in the split's next quantum, which
 *   runs on the same worker (the backend pins it there); a cancel meanwhile rejects the await.
 *   On a cluster node's workers (no pinning) it resolves at once: the call keeps its worker.
 * - Return `{ yield: state }` to continue in a later quantum: `state` becomes `input` of the next
 *   call (it is kept by the backend between quanta, possibly on another worker).
 * - Throwing fails the split; the error's message is kept as the reason. So does an error thrown
 *   later from a timer or an unhandled rejection of a promise made by the call, while the split's
 *   quantum still runs; once it has ended, such an error fails no split: it becomes an engine
 *   event `late-error` naming the split, its module (and its job), and the worker goes on.
 * - A call that never returns or settles is killed past `hardKillAfterMs` (docs/hard-limit.md).
 *
 * `totalNanos` and `perCallNanos` do not apply to a module: it decides itself when it is done.
 */
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import type { ModuleRef } from '../backend.ts';

export interface TaskContext {
  shouldYield(): boolean;
  /**
   * In an async function: resolves at once while the quantum lasts; once it is used up the
   * quantum ends as a yield and the promise resolves when the split's next quantum starts, in the
   * same worker (the call stays suspended there). Rejects if the split is cancelled meanwhile.
   */
  yield(): Promise<void>;
  readonly signal: AbortSignal;
  readonly quantumNanos: number;
  /**
   * `return ctx.move(buffer)`: the result moves to the caller instead of being copied (an
   * ArrayBuffer, a view on one, or a MessagePort), as Piscina's `move`; the caller gets `value`.
   */
  move<T>(value: T): T;
}

export type UserFunction = (input: unknown, ctx: TaskContext) => unknown;

const cache = new Map<string, Promise<UserFunction>>();
/** The functions loaded so far, by ref object: a quantum's dispatch finds its own without a wait. */
const loadedByRef = new WeakMap<ModuleRef, UserFunction>();

/** `ref`'s function if this very ref object was loaded before (no string built, no promise). */
export function loadedFunction(ref: ModuleRef): UserFunction | undefined {
  return loadedByRef.get(ref);
}

/** Imports (once per worker) and returns the named export; rejects with a message naming it. */
export function loadUserFunction(ref: ModuleRef): Promise<UserFunction> {
  const exportName = ref.exportName ?? 'default';
  const key = `${ref.module}#${exportName}`;
  let loaded = cache.get(key);
  if (loaded === undefined) {
    loaded = importFunction(ref.module, exportName);
    cache.set(key, loaded);
    // A failed import is not cached: the file may be fixed and the split retried.
    loaded.catch(() => cache.delete(key));
  }
  return loaded.then((fn) => {
    loadedByRef.set(ref, fn);
    return fn;
  });
}

async function importFunction(module: string, exportName: string): Promise<UserFunction> {
  const url = isAbsolute(module) ? pathToFileURL(module).href : module;
  if (!url.startsWith('file:')) {
    throw new Error(`module must be an absolute path or a file URL, got ${module}`);
  }
  const fn = exportOf((await importWrapped(url)).ns, exportName);
  if (typeof fn !== 'function') {
    throw new Error(`module ${module} has no function export ${exportName}`);
  }
  return fn as UserFunction;
}

/**
 * The export `name` of a module namespace, or, as Piscina finds it, of a CommonJS module's
 * `module.exports` (the namespace's `default`) where Node's named-export detection missed it: an
 * object of arrow functions (`module.exports = { resize: (x) => … }`), or `tsc`'s CommonJS output
 * of a default export (`exports.default = main` with `__esModule`, read as `default.default`).
 */
function exportOf(ns: Record<string, unknown>, name: string): unknown {
  if (typeof ns[name] === 'function') return ns[name];
  const cjs = ns['default'];
  if (typeof cjs !== 'object' || cjs === null) return ns[name];
  const inner = (cjs as Record<string, unknown>)[name];
  return typeof inner === 'function' ? inner : ns[name];
}

/**
 * The module at `url` through a one-line module that re-exports its namespace as `ns`. `import()`
 * resolves with the namespace, so a namespace with a `then` export (a module exporting a function
 * named `then`) is taken for a promise and adopted: the import never settled, and each run of any
 * of its exports hung its worker until the hard kill blamed the run's function. The wrapper's own
 * namespace has no `then`; `ns` must not pass through a promise either (an async return adopts it).
 */
async function importWrapped(url: string): Promise<{ ns: Record<string, unknown> }> {
  const wrapper = `data:text/javascript,${encodeURIComponent(`import * as ns from ${JSON.stringify(url)}; export { ns };`)}`;
  try {
    return (await import(wrapper)) as { ns: Record<string, unknown> };
  } catch (e) {
    // "Cannot find module … imported from data:…": the wrapper is ours, not the user's.
    if (e instanceof Error && e.message.includes(wrapper))
      e.message = e.message.replace(` imported from ${wrapper}`, '').replace(wrapper, url);
    throw e;
  }
}

/**
 * `{ yield: state }` from a user function, with no other key: not finished yet. A result that
 * has a `yield` among other keys (a bond's `{ yield, price }`) is a result: taken for a yield,
 * the function ran again with the yield as its input and the rest was lost.
 */
export function isYield(value: unknown): value is { yield: unknown } {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'yield')) return false;
  for (const key in value) if (key !== 'yield' && Object.hasOwn(value, key)) return false;
  return true;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
