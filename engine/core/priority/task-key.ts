/**
 * One heap key per queued task: `effectivePriority · 2^46 + sequence`, a single double. Priorities
 * are integers 0..100 (7 bits) and sequences stay below 2^46, so every key is an exact integer
 * below 2^53 and comparing two keys orders by `[effectivePriority, sequence]` in one comparison.
 * The queue renumbers its sequences long before they reach 2^46 (see `SEQUENCE_LIMIT`).
 */

/** Sequences live in `[0, SEQUENCE_SPAN)`; the priority sits above them. */
export const SEQUENCE_SPAN = 2 ** 46;

/**
 * The sequence at which the queue renumbers its live tasks 0..live−1 (keeping their order). Far
 * below `SEQUENCE_SPAN` so a `bulkPush` of any size that fits in memory still stays inside it.
 */
export const SEQUENCE_LIMIT = 2 ** 45;

export function packKey(priority: number, sequence: number): number {
  return priority * SEQUENCE_SPAN + sequence;
}

export function priorityOfKey(key: number): number {
  return Math.floor(key / SEQUENCE_SPAN);
}

export function sequenceOfKey(key: number): number {
  return key % SEQUENCE_SPAN;
}
