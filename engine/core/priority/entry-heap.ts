/**
 * The heap entry of DESIGN.md §3.2 — ordered by `[effectivePriority, sequence]`, carrying `id` —
 * and the binary-heap primitives over an array of them. These are the hot paths: plain loops, no
 * closures, no allocation, one monomorphic entry shape so V8 keeps the property loads inline.
 */
export type TaskId = number | string;

export class Entry<T> {
  /** Effective priority (base minus aging boost); the heap's first key. */
  priority: number;
  /** The id's arrival order; survives re-keying so a re-keyed task keeps its place among equals. */
  readonly sequence: number;
  readonly id: TaskId;
  /** Dropped when the entry dies so a tombstone never keeps a task's payload alive. */
  item: T | undefined;
  base: number;
  /** Start of the aging clock (ns). */
  readySince: number;
  /** False once popped, removed or replaced by a re-keyed entry (a tombstone). */
  alive: boolean;

  constructor(
    priority: number,
    sequence: number,
    id: TaskId,
    item: T,
    base: number,
    readySince: number,
  ) {
    this.priority = priority;
    this.sequence = sequence;
    this.id = id;
    this.item = item;
    this.base = base;
    this.readySince = readySince;
    this.alive = true;
  }
}

/** What the queue hands out: a snapshot, never the entry itself. */
export interface QueuedTask<T> {
  readonly id: TaskId;
  readonly item: T;
  /** Base priority, as pushed or last updated. */
  readonly priority: number;
  /** Priority the queue ordered it by (base minus aging boost). */
  readonly effectivePriority: number;
  readonly readySince: number;
}

/** Makes `entry` a tombstone. */
export function kill<T>(entry: Entry<T>): void {
  entry.alive = false;
  entry.item = undefined;
}

export function view<T>(entry: Entry<T>, item: T): QueuedTask<T> {
  return {
    id: entry.id,
    item,
    priority: entry.base,
    effectivePriority: entry.priority,
    readySince: entry.readySince,
  };
}

export function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.priority < b.priority || (a.priority === b.priority && a.sequence < b.sequence);
}

export function heapPush<T>(heap: Entry<T>[], entry: Entry<T>): void {
  heap.push(entry);
  siftUp(heap, heap.length - 1);
}

/**
 * Removes and returns the top entry (live or dead). Bottom-up (Floyd): the hole left at the root
 * walks down to a leaf taking the smaller child (one comparison per level instead of two), then the
 * last entry — which usually belongs near the bottom anyway — sifts up from there.
 */
export function heapPop<T>(heap: Entry<T>[]): Entry<T> | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (top === undefined || last === undefined) return undefined;
  const n = heap.length;
  if (n === 0) return top;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    let child = left;
    let childEntry = heap[left]!;
    if (right < n) {
      const rightEntry = heap[right]!;
      if (before(rightEntry, childEntry)) {
        child = right;
        childEntry = rightEntry;
      }
    }
    heap[i] = childEntry;
    i = child;
  }
  heap[i] = last;
  siftUp(heap, i);
  return top;
}

export function siftUp<T>(heap: Entry<T>[], index: number): void {
  const entry = heap[index]!;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const up = heap[parent]!;
    if (!before(entry, up)) break;
    heap[i] = up;
    i = parent;
  }
  heap[i] = entry;
}

export function siftDown<T>(heap: Entry<T>[], index: number): void {
  const n = heap.length;
  const entry = heap[index]!;
  let i = index;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    let child = left;
    let childEntry = heap[left]!;
    if (right < n) {
      const rightEntry = heap[right]!;
      if (before(rightEntry, childEntry)) {
        child = right;
        childEntry = rightEntry;
      }
    }
    if (!before(childEntry, entry)) break;
    heap[i] = childEntry;
    i = child;
  }
  heap[i] = entry;
}

/** Floyd's bottom-up heap construction: O(n). */
export function heapify<T>(heap: Entry<T>[]): void {
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
}
