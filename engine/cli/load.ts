/** A workload by preset name or JSON file path, with `--set` edits applied, then validated. */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import {
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_CONTAINERS,
  MAX_LABEL_CHARS,
} from '../../shared/limits.ts';
import { parseWorkload, type Workload } from '../../shared/workload.ts';
import { isPreset, PRESET_NAMES, PRESETS } from '../core/workload/presets/index.ts';
import { applyWorkloadEdits, type Settings } from './settings.ts';
import { UsageError } from './usage-error.ts';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readBounded(path, what);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR')
      throw new UsageError(`${what} ${path}: is a directory, not a JSON file`, what);
    // Only a missing file may be a misspelt preset; any other failure is named as it is.
    if (code !== 'ENOENT') throw new UsageError(`${what} ${path}: cannot be read (${code})`, what);
    throw new UsageError(
      `${what} ${path}: no such file (presets: ${PRESET_NAMES.join(', ')})`,
      what,
    );
  }
  try {
    // Editors on Windows save UTF-8 with a byte-order mark; JSON.parse would call it a syntax error.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
  } catch (e) {
    throw new UsageError(`${what} ${path}: not valid JSON (${(e as Error).message})`, what);
  }
}

export function loadWorkload(ref: string, edits: Settings['workload'] = []): Workload {
  const doc = isPreset(ref) ? structuredClone(PRESETS[ref]) : readJsonFile(ref, 'workload');
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UsageError(`workload ${ref}: must be a JSON object`, 'workload');
  }
  const workload = bareGraph(doc as Record<string, unknown>, ref);
  applyWorkloadEdits(workload, edits);
  return parseWorkload(workload);
}

/** The workload fields that say what runs: a document with none of them may be a graph itself. */
const WORKLOAD_BODIES = ['classes', 'trino', 'graph'];

/**
 * A bare graph document (`{ nodes, edges }` or `{ generator, … }`, shared/graph.ts) runs as the
 * workload `{ name, graph: doc }`, named after its file: `run dag.json` takes either form.
 */
function bareGraph(doc: Record<string, unknown>, ref: string): Record<string, unknown> {
  if (WORKLOAD_BODIES.some((k) => k in doc) || !('nodes' in doc || 'generator' in doc)) return doc;
  // Cut to the name limit: a long file name is not a field the user wrote.
  const name = basename(ref)
    .replace(/\.json$/i, '')
    .slice(0, MAX_LABEL_CHARS);
  return { name, graph: doc };
}

const CHUNK = 1 << 20;

/**
 * The file as text, read in chunks up to `MAX_DOCUMENT_BYTES`: a device or pipe has no size to
 * check first, and a file past the limit is refused before it is read whole.
 */
function readBounded(path: string, what: string): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_DOCUMENT_BYTES) {
        const mib = MAX_DOCUMENT_BYTES / (1024 * 1024);
        throw new UsageError(
          `${what} ${path}: larger than ${MAX_DOCUMENT_BYTES} bytes (${mib} MiB), the most a document may be`,
          what,
        );
      }
      chunks.push(n === CHUNK ? chunk : chunk.subarray(0, n));
    }
    const bytes = Buffer.concat(chunks, total);
    if (containersPast(bytes, MAX_DOCUMENT_CONTAINERS)) {
      throw new UsageError(
        `${what} ${path}: holds more than ${MAX_DOCUMENT_CONTAINERS} objects and arrays, the most a document may (MAX_DOCUMENT_CONTAINERS)`,
        what,
      );
    }
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the JSON text `bytes` opens more than `max` objects and arrays (`{` and `[` outside
 * strings), counted on the bytes before `JSON.parse` would build them. Malformed text is the
 * parser's to refuse: this only counts.
 */
export function containersPast(bytes: Uint8Array, max: number): boolean {
  // Fewer bytes than the limit cannot hold more containers: most documents skip the scan.
  if (bytes.length <= max) return false;
  let count = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c)
        i++; // a backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if ((b === 0x7b || b === 0x5b) && ++count > max) return true;
  }
  return false;
}
