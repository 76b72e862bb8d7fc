/**
 * On the cluster a module's input, its yielded state and its result cross Redis as JSON
 * (protocol.ts). JSON silently changes what it cannot carry — a `Map` or typed array arrives as
 * an object of its entries, a `Date` as a string, `NaN` as null — and cannot carry a `bigint` or
 * a value that contains itself at all: `JSON.stringify` throws, and a quantum whose end cannot be
 * written never ends. So such a value fails its split, saying where the fault is, before it is
 * sent: the threads backend fails a value it cannot clone the same way.
 */

/** Deeper than this is refused (a deeper value would overflow the stack that writes it). */
export const MAX_JSON_DEPTH = 512;

/**
 * Why `value` would not arrive as itself after a JSON round trip, naming the place in it (`name`
 * for the value itself, then `.key` and `[i]`), or null when it would. `undefined` at the top
 * (nothing to carry) and an object's `undefined` properties (dropped, and read back as
 * `undefined`) pass; anything else JSON would change does not.
 */
export function jsonFault(value: unknown, name: string): string | null {
  try {
    return faultAt(value, name, 0, new Set());
  } catch (e) {
    // A getter that throws, a revoked proxy: JSON could not read it either.
    return `${name} cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function faultAt(value: unknown, at: string, depth: number, path: Set<object>): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${at} is ${String(value)} (JSON makes it null)`;
    case 'bigint':
    case 'symbol':
    case 'function':
      return `${at} is a ${typeof value}`;
  }
  if (value === null) return null;
  const object = value as object;
  if (depth >= MAX_JSON_DEPTH) return `${at} nests deeper than ${MAX_JSON_DEPTH} levels`;
  if (path.has(object)) return `${at} contains itself`;
  path.add(object);
  const fault = Array.isArray(object)
    ? arrayFault(object, at, depth, path)
    : objectFault(object, at, depth, path);
  path.delete(object);
  return fault;
}

function arrayFault(array: unknown[], at: string, depth: number, path: Set<object>): string | null {
  if (Object.getPrototypeOf(array) !== Array.prototype) return notPlain(array, at);
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    if (item === undefined) return `${at}[${i}] is undefined (JSON makes it null)`;
    const fault = faultAt(item, `${at}[${i}]`, depth + 1, path);
    if (fault !== null) return fault;
  }
  return null;
}

function objectFault(object: object, at: string, depth: number, path: Set<object>): string | null {
  const proto = Object.getPrototypeOf(object) as unknown;
  if (proto !== Object.prototype && proto !== null) return notPlain(object, at);
  for (const [key, item] of Object.entries(object)) {
    const fault = faultAt(item, `${at}${member(key)}`, depth + 1, path);
    if (fault !== null) return fault;
  }
  return null;
}

function notPlain(object: object, at: string): string {
  const name = (object.constructor as { name?: unknown } | undefined)?.name;
  const what = typeof name === 'string' && name !== '' ? name : 'object of a class';
  return `${at} is a ${what}, not a plain object or array`;
}

function member(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
