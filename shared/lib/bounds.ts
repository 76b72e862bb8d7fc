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
 * held to this. A value containing itself is not deeper for it (a copy refers back). Each
 * container is walked once: its own nesting is remembered, so a part shared at many places (a
 * ladder of arrays each holding the next twice) costs its size, not its paths (it took 5.8 s).
 * `visit`, when given, sees each container once as it is entered, until the answer is known
 * (shared/job.ts `frozenInput` freezes a copy on the same walk rather than walking it twice).
 */
export function nestsDeeperThan(
  value: unknown,
  max: number,
  visit?: (container: object) => void,
): boolean {
  if (!isContainer(value)) return false;
  /** Containers walked to the end: how deep each nests, itself included. */
  const heights = new Map<object, number>();
  /** The containers from the top down to the one being walked (its depth is their count). */
  const path = new Set<object>();
  const stack: { container: object; kids: object[]; next: number; deepest: number }[] = [];
  const enter = (container: object): boolean => {
    visit?.(container);
    path.add(container);
    stack.push({ container, kids: containersIn(container), next: 0, deepest: 0 });
    return stack.length > max;
  };
  if (enter(value)) return true;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.kids.length) {
      const kid = top.kids[top.next++]!;
      if (path.has(kid)) continue; // it contains itself: a copy refers back, no deeper
      const height = heights.get(kid);
      if (height === undefined) {
        if (enter(kid)) return true;
      } else {
        if (stack.length + height > max) return true;
        top.deepest = Math.max(top.deepest, height);
      }
      continue;
    }
    stack.pop();
    path.delete(top.container);
    const height = top.deepest + 1;
    heights.set(top.container, height);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.deepest = Math.max(parent.deepest, height);
  }
  return false;
}

/** The arrays and plain objects directly inside `container`. */
function containersIn(container: object): object[] {
  const entries = Array.isArray(container)
    ? (container as unknown[])
    : Object.values(container as Record<string, unknown>);
  const kids: object[] = [];
  for (const entry of entries) if (isContainer(entry)) kids.push(entry);
  return kids;
}

function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
