/** A workload by preset name or JSON file path, with `--set` edits applied, then validated. */
import { basename } from 'node:path';
import {
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_CONTAINERS,
  MAX_LABEL_CHARS,
} from '../../shared/limits.ts';
import { parseWorkload, type Workload } from '../../shared/workload.ts';
import { readPlainFile } from '../host/plain-file.ts';
import { isPreset, PRESET_NAMES, PRESETS } from '../core/workload/presets/index.ts';
import { applyWorkloadEdits, type Settings } from './settings.ts';
import { UsageError } from './usage-error.ts';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readDocument(path, what);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR')
      throw new UsageError(`${what} ${path}: is a directory, not a regular file`, what);
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

/**
 * The document as text: a regular file of at most `MAX_DOCUMENT_BYTES` (a FIFO, a device or a
 * directory is refused unread), of at most `MAX_DOCUMENT_CONTAINERS` objects and arrays.
 */
function readDocument(path: string, what: string): string {
  const bytes = readPlainFile(
    path,
    MAX_DOCUMENT_BYTES,
    (why) => new UsageError(`${what} ${path}: ${why}`, what),
  );
  if (containersPast(bytes, MAX_DOCUMENT_CONTAINERS)) {
    throw new UsageError(
      `${what} ${path}: holds more than ${MAX_DOCUMENT_CONTAINERS} objects and arrays, the most a document may (MAX_DOCUMENT_CONTAINERS)`,
      what,
    );
  }
  return bytes.toString('utf8');
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
