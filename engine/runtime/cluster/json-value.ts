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
  let found: Fault | null;
  try {
    found = faultIn(value, 0, new Set());
  } catch (e) {
    // A getter that throws, a revoked proxy: JSON could not read it either.
    return `${name} cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (found === null) return null;
  // The place is spelled out only for a fault: a large value that passes builds no path text.
  const at = found.where.reverse().map(member).join('');
  return `${name}${at} ${found.what}`;
}

/** What is wrong, and where: keys and indexes from the fault up (appended while unwinding). */
interface Fault {
  readonly what: string;
  readonly where: (string | number)[];
}

function fault(what: string): Fault {
  return { what, where: [] };
}

function faultIn(value: unknown, depth: number, path: Set<object>): Fault | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : fault(`is ${String(value)} (JSON makes it null)`);
    case 'bigint':
    case 'symbol':
    case 'function':
      return fault(`is a ${typeof value}`);
  }
  if (value === null) return null;
  const object = value as object;
  if (depth >= MAX_JSON_DEPTH) return fault(`nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (path.has(object)) return fault('contains itself');
  path.add(object);
  const found = Array.isArray(object)
    ? arrayFault(object, depth, path)
    : objectFault(object, depth, path);
  path.delete(object);
  return found;
}

function arrayFault(array: unknown[], depth: number, path: Set<object>): Fault | null {
  if (Object.getPrototypeOf(array) !== Array.prototype) return notPlain(array);
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    const found =
      item === undefined
        ? fault('is undefined (JSON makes it null)')
        : faultIn(item, depth + 1, path);
    if (found !== null) {
      found.where.push(i);
      return found;
    }
  }
  return null;
}

function objectFault(object: object, depth: number, path: Set<object>): Fault | null {
  const proto = Object.getPrototypeOf(object) as unknown;
  if (proto !== Object.prototype && proto !== null) return notPlain(object);
  for (const key of Object.keys(object)) {
    const found = faultIn((object as Record<string, unknown>)[key], depth + 1, path);
    if (found !== null) {
      found.where.push(key);
      return found;
    }
  }
  return null;
}

function notPlain(object: object): Fault {
  const name = (object.constructor as { name?: unknown } | undefined)?.name;
  const what = typeof name === 'string' && name !== '' ? name : 'object of a class';
  return fault(`is a ${what}, not a plain object or array`);
}

function member(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
