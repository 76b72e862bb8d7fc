/**
 * Size checks that stay cheap on a document far past its limits: an array's length before its
 * entries, a value's nesting without recursion. A document over a limit must be refused in the
 * time it takes to look at its size, not to read all of it.
 */
import { z } from 'zod';

/**
 * `item[]` of `min` (when given) to `max` entries, refused by its length before any entry is
 * parsed. zod counts an array before parsing its entries only while its length checks lead the
 * array's checks: with a `.refine` first, every one of a million entries is parsed (and named
 * wrong, `nodes[0].id is required`) before the length is looked at. So every bounded array is
 * built here, its length checks first. The too-many message is zod's, said as
 * `nodes must have at most 1048576 entries` (schema-error.ts).
 */
export function boundedArray<T extends z.ZodType>(
  item: T,
  max: number,
  min?: number,
): z.ZodArray<T> {
  const bounded = z.array(item).max(max);
  return min === undefined ? bounded : bounded.min(min);
}

/**
 * Whether `value` nests arrays and plain objects more than `max` deep (`[[1]]` is 2 deep; a
 * primitive 0). Walked with a stack of its own, so a value 100,000 deep is answered rather than
 * overflowing the call stack the way copying it would (`structuredClone`, `postMessage`). Other
 * objects (typed arrays, Maps, class instances) are not looked into: only documents' values are
 * held to this. A value containing itself is not deeper for it (a copy refers back), and an
 * object met again is walked again only when met deeper, so shared parts stay cheap.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (!isContainer(value)) return false;
  const deepest = new Map<object, number>();
  const path = new Set<object>(); // the containers from the top to the one being walked
  // `depth` 0 marks leaving a container: it is off the path from then on.
  const stack: [object, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [container, depth] = top;
    if (depth === 0) {
      path.delete(container);
      continue;
    }
    if (path.has(container) || (deepest.get(container) ?? 0) >= depth) continue;
    if (depth > max) return true;
    deepest.set(container, depth);
    path.add(container);
    stack.push([container, 0]);
    const entries = Array.isArray(container)
      ? (container as unknown[])
      : Object.values(container as Record<string, unknown>);
    for (const entry of entries) if (isContainer(entry)) stack.push([entry, depth + 1]);
  }
  return false;
}

function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
