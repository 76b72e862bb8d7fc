/**
 * On the cluster a module's input, its yielded state and its result cross Redis as JSON
 * (protocol.ts). JSON silently changes what it cannot carry — a `Map` or typed array arrives as
 * an object of its entries, a `Date` as a string, `NaN` as null — and cannot carry a `bigint` or
 * a value that contains itself at all: `JSON.stringify` throws, and a quantum whose end cannot be
 * written never ends. So such a value fails its split, saying where the fault is, before it is
 * sent: the threads backend fails a value it cannot clone the same way.
 *
 * A `-0` is carried beside the value: JSON writes it `0`, so the places that hold one travel as a
 * list of paths (`Zeros`) and the receiver puts them back (`restoreZeros`), as threads clone it.
 *
 * Its size is bounded too. A value whose JSON text passes V8's longest string (≈ 512 Mi
 * characters) makes `JSON.stringify` throw inside BullMQ's `add`: the split came back unstarted
 * and was offered again in the same turn, for good (the coordinator hung). Redis refuses a bulk
 * string over 512 MB as well.
 */
import { MAX_JSON_DEPTH } from '../../../shared/limits.ts';

/** Deeper than this is refused (a deeper value would overflow the stack that writes it). */
export { MAX_JSON_DEPTH };

/**
 * The most characters of JSON text a value may need (64 Mi). Counted without escapes, so the
 * real text is at most 6× this (`\u0000`), 384 Mi characters or bytes: under both V8's and
 * Redis's limits.
 */
export const MAX_JSON_CHARS = 64 * 1024 * 1024;

/**
 * The most places holding `-0` a value may have: each travels as a list beside the JSON (a million
 * of them, 120 deep, took 1 GB of the coordinator's heap before the size limit refused them).
 */
export const MAX_ZERO_PLACES = 65_536;

/** The places in a value that hold `-0`, each the keys and indexes from the top (`[]`: itself). */
export type Zeros = (string | number)[][];

/**
 * Why `value` would not arrive as itself after a JSON round trip, naming the place in it (`name`
 * for the value itself, then `.key` and `[i]`), or null when it would. `undefined` at the top
 * (nothing to carry) and an object's `undefined` properties (dropped, and read back as
 * `undefined`) pass; anything else JSON would change does not — but a `-0`, which travels beside
 * the value (`sendCheck`).
 */
export function jsonFault(value: unknown, name: string): string | null {
  return inspect(value, name).fault;
}

function inspect(value: unknown, name: string): { fault: string | null; zeros: Zeros } {
  let found: Fault | null;
  const walk: Walk = { path: new Set(), chars: 0, at: [], zeros: [] };
  try {
    found = faultIn(value, 0, walk);
    if (found === null && walk.chars > MAX_JSON_CHARS) {
      const fault = `${name} is larger than ${MAX_JSON_CHARS} characters as JSON (the cluster's limit)`;
      return { fault, zeros: [] };
    }
  } catch (e) {
    // A getter that throws, a revoked proxy: JSON could not read it either.
    const fault = `${name} cannot be read: ${e instanceof Error ? e.message : String(e)}`;
    return { fault, zeros: [] };
  }
  if (found === null) return { fault: null, zeros: walk.zeros };
  // The place is spelled out only for a fault: a large value that passes builds no path text.
  const at = found.where.reverse().map(member).join('');
  return { fault: `${name}${at} ${found.what}`, zeros: [] };
}

/**
 * The objects from the top down to the one being read, the keys and indexes that lead there, the
 * `-0`s found and the JSON characters counted so far.
 */
interface Walk {
  readonly path: Set<object>;
  chars: number;
  readonly at: (string | number)[];
  readonly zeros: Zeros;
}

/**
 * A value about to be sent: `error`, the split error of one the cluster cannot send (`what`:
 * `input`, `result`, `yielded state`; `name` heads its place), or null with where its `-0`s are
 * (`zeros`, absent when none) to send beside it.
 */
export function sendCheck(
  value: unknown,
  name: string,
  what: string,
): { error: string; zeros?: undefined } | { error: null; zeros?: Zeros } {
  const { fault, zeros } = inspect(value, name);
  if (fault !== null) {
    return { error: `${what} cannot be sent: ${fault} (on the cluster values travel as JSON)` };
  }
  return zeros.length === 0 ? { error: null } : { error: null, zeros };
}

/**
 * `value` as read back from JSON, with a `-0` put back at each place `zeros` names (a sender's
 * list, not trusted: a place that does not hold a 0 is left alone). Changes `value` in place.
 */
export function restoreZeros(value: unknown, zeros: unknown): unknown {
  if (!Array.isArray(zeros)) return value;
  let top = value;
  for (const path of zeros as unknown[]) {
    if (!Array.isArray(path)) continue;
    if (path.length === 0) {
      if (top === 0) top = -0;
      continue;
    }
    let holder: unknown = top;
    for (let i = 0; i < path.length - 1 && holder !== undefined; i++) holder = own(holder, path[i]);
    const last: unknown = path[path.length - 1];
    if (own(holder, last) === 0) (holder as Record<string, unknown>)[last as string] = -0;
  }
  return top;
}

/** `holder[key]` when `holder` is an object or array that has `key` as its own, else undefined. */
function own(holder: unknown, key: unknown): unknown {
  if (typeof holder !== 'object' || holder === null) return undefined;
  if (typeof key !== 'string' && typeof key !== 'number') return undefined;
  return Object.hasOwn(holder, key) ? (holder as Record<string, unknown>)[key] : undefined;
}

/** What is wrong, and where: keys and indexes from the fault up (appended while unwinding). */
interface Fault {
  readonly what: string;
  readonly where: (string | number)[];
}

function fault(what: string): Fault {
  return { what, where: [] };
}

function faultIn(value: unknown, depth: number, walk: Walk): Fault | null {
  switch (typeof value) {
    case 'string':
      walk.chars += value.length + 2;
      return null;
    case 'boolean':
      walk.chars += 5;
      return null;
    case 'undefined':
      return null;
    case 'number':
      if (!Number.isFinite(value)) return fault(`is ${String(value)} (JSON makes it null)`);
      if (Object.is(value, -0)) {
        // Each place is a list of its own: bounded before it is kept, not after.
        if (walk.zeros.length === MAX_ZERO_PLACES) {
          return fault(
            `holds more than ${MAX_ZERO_PLACES} -0 values (each travels beside the JSON)`,
          );
        }
        walk.chars += 4 * (walk.at.length + 1); // its place, sent beside
        if (walk.chars > MAX_JSON_CHARS) return null; // refused when the walk ends
        walk.zeros.push([...walk.at]);
      }
      walk.chars += digits(value);
      return null;
    case 'bigint':
    case 'symbol':
    case 'function':
      return fault(`is a ${typeof value}`);
  }
  if (value === null) {
    walk.chars += 4;
    return null;
  }
  const object = value as object;
  if (depth >= MAX_JSON_DEPTH) return fault(`nests deeper than ${MAX_JSON_DEPTH} levels`);
  // Stop reading once over: a huge value is not walked to its end only to be refused.
  if (walk.chars > MAX_JSON_CHARS) return null;
  const { path } = walk;
  if (path.has(object)) return fault('contains itself');
  path.add(object);
  walk.chars += 2; // the brackets
  const found = Array.isArray(object)
    ? arrayFault(object, depth, walk)
    : objectFault(object, depth, walk);
  path.delete(object);
  return found;
}

function arrayFault(array: unknown[], depth: number, walk: Walk): Fault | null {
  if (Object.getPrototypeOf(array) !== Array.prototype) return notPlain(array);
  walk.chars += array.length; // the commas, near enough
  for (let i = 0; i < array.length; i++) {
    if (walk.chars > MAX_JSON_CHARS) return null; // refused when the walk ends
    const item = array[i];
    walk.at.push(i);
    const found =
      item === undefined
        ? fault('is undefined (JSON makes it null)')
        : faultIn(item, depth + 1, walk);
    walk.at.pop();
    if (found !== null) {
      found.where.push(i);
      return found;
    }
  }
  return null;
}

function objectFault(object: object, depth: number, walk: Walk): Fault | null {
  const proto = Object.getPrototypeOf(object) as unknown;
  if (proto !== Object.prototype && proto !== null) return notPlain(object);
  for (const key of Object.keys(object)) {
    if (walk.chars > MAX_JSON_CHARS) return null; // refused when the walk ends
    walk.chars += key.length + 4; // "key":,
    walk.at.push(key);
    const found = faultIn((object as Record<string, unknown>)[key], depth + 1, walk);
    walk.at.pop();
    if (found !== null) {
      found.where.push(key);
      return found;
    }
  }
  return null;
}

/** The characters of a finite number's JSON, without making its text for the usual integers. */
function digits(value: number): number {
  if (!Number.isSafeInteger(value)) return String(value).length;
  let n = value < 0 ? 2 : 1;
  for (let v = Math.abs(value); v >= 10; v = Math.floor(v / 10)) n++;
  return n;
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
