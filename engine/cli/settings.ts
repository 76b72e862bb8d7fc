/**
 * `--set key=value` and `--duration`: a key naming an engine setting (shared/config.ts) becomes a
 * config override; a key starting with a workload field (`classes[1].arrival.rate`, `seed`,
 * `trino.controllerIntervalMs`) edits the workload document before it is validated, so a bad
 * value is reported with the exact field. Values are JSON where they parse (`4`, `true`,
 * `[0,50,500]`), plain strings otherwise (`fifo`).
 */
import { engineConfigShape, type EngineConfigPatch } from '../../shared/config.ts';
import { fieldPath } from '../../shared/schema-error.ts';
import { workloadSchema } from '../../shared/workload.ts';
import { UsageError } from './usage-error.ts';
import { checkConfigPatch } from '../host/report/resolve-config.ts';

/** The workload document's own fields, from its schema: a hand-kept list missed `tenantWeights`. */
const WORKLOAD_FIELDS: ReadonlySet<string> = new Set(Object.keys(workloadSchema.shape));

export interface Settings {
  config: EngineConfigPatch;
  /** Edits to the workload document: a path and a value each. */
  workload: { path: (string | number)[]; value: unknown }[];
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Keys that would reach an object's prototype rather than a field of the document. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The largest index an array entry may have. */
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** `classes[1].arrival.rate` → `['classes', 1, 'arrival', 'rate']`. */
export function parsePath(key: string): (string | number)[] {
  const path: (string | number)[] = [];
  for (const part of key.split('.')) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (m === null)
      throw new UsageError(
        `--set ${key}: not a field path (e.g. classes[1].arrival.rate)`,
        '--set',
      );
    if (FORBIDDEN_KEYS.has(m[1]!))
      throw new UsageError(`--set ${key}: "${m[1]!}" is not allowed in a field path`, '--set');
    path.push(m[1]!);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) {
      const index = Number(idx[1]);
      // Past 2^32 − 2 an index is no array entry (it set a plain property, ignored).
      if (!(index <= MAX_ARRAY_INDEX))
        throw new UsageError(`--set ${key}: index ${idx[1]!} is past any list's end`, '--set');
      path.push(index);
    }
  }
  return path;
}

export function parseSettings(sets: readonly string[]): Settings {
  const out: Settings = { config: {}, workload: [] };
  const config: Record<string, unknown> = {};
  for (const s of sets) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set ${s}: expected key=value`, '--set');
    const key = s.slice(0, eq);
    const value = parseValue(s.slice(eq + 1));
    if (Object.hasOwn(engineConfigShape, key)) config[key] = value;
    else {
      const path = parsePath(key);
      if (!WORKLOAD_FIELDS.has(String(path[0]))) {
        throw new UsageError(
          `--set ${key}: unknown setting (neither an engine setting nor a workload field)`,
          '--set',
        );
      }
      out.workload.push({ path, value });
    }
  }
  // Validated here so the error names the setting as the user typed it.
  out.config = checkConfigPatch(config);
  return out;
}

/** Applies workload edits to a (cloned) document; missing objects on the way are created. */
export function applyWorkloadEdits(
  doc: Record<string, unknown>,
  edits: Settings['workload'],
): void {
  for (const { path, value } of edits) {
    let node: unknown = doc;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const container = node as Record<string | number, unknown>;
      if (container[key] === undefined || container[key] === null) {
        if (typeof key === 'number')
          throw new UsageError(
            `--set ${fieldPath(path)}: ${fieldPath(path.slice(0, i))} has no entry ${key} to change`,
            '--set',
          );
        container[key] = typeof path[i + 1] === 'number' ? [] : {};
      }
      node = container[key];
      if (typeof node !== 'object' || node === null) {
        throw new UsageError(
          `--set ${fieldPath(path)}: ${fieldPath(path.slice(0, i + 1))} is not an object`,
          '--set',
        );
      }
    }
    const last = path.at(-1)!;
    // A list's entry is changed, or one added at its end: past the end it left holes (each
    // refused as missing) or, far past, a property no one reads (the edit silently ignored).
    if (Array.isArray(node) && (typeof last !== 'number' || last > node.length)) {
      throw new UsageError(
        `--set ${fieldPath(path)}: ${fieldPath(path.slice(0, -1))} has no entry ${String(last)} to change (it has ${node.length})`,
        '--set',
      );
    }
    (node as Record<string | number, unknown>)[last] = value;
  }
}

/** `30s`, `1.5m`, `500ms`, `2h`; a bare number is seconds. Returns ms. */
export function parseDuration(
  text: string,
  flag = '--duration',
  max?: { readonly ms: number; readonly text: string },
): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|min|h)?$/.exec(text.trim());
  if (m === null)
    throw new UsageError(`${flag} ${text}: expected a time like 30s, 500ms, 2m or 1h`, flag);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const ms =
    unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'h' ? n * 3_600_000 : n * 60_000;
  if (!(ms > 0)) throw new UsageError(`${flag} ${text}: must be > 0`, flag);
  // The engine counts whole nanoseconds: 0.0000001ms ran for 0 ns and reported an empty run.
  if (ms * 1e6 < 1)
    throw new UsageError(`${flag} ${text}: must be at least 1 ns (0.000001ms)`, flag);
  if (max !== undefined && ms > max.ms) {
    throw new UsageError(`${flag} ${text}: must be at most ${max.text}`, flag);
  }
  return ms;
}
