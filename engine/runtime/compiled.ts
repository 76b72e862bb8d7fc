/**
 * Whether the engine runs as compiled JavaScript (`npm run build` → dist/lib, what the package's
 * `exports` point at) or as TypeScript under a loader (tsx, vitest). Compiled, a worker starts from
 * its entry's `.js` sibling directly; as TypeScript it needs a boot file that registers tsx first,
 * which costs each worker about 100 ms.
 */
export const COMPILED = import.meta.url.endsWith('.js');

/** The URL a worker starts from: the compiled `.js` of `tsEntry`, or the `boot` file that loads it. */
export function workerStartUrl(tsEntry: URL, boot: URL): URL {
  return COMPILED ? new URL(tsEntry.href.replace(/\.ts$/, '.js')) : boot;
}
