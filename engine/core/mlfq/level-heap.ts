/**
 * One MLFQ level's waiting splits: a binary min-heap on `(levelPriority, sequence)` whose entries
 * remember their index, so `remove` is O(log n) without tombstones. The comparison is written out
 * rather than passed in: this heap sits on the hot path of every quantum.
 */
export interface LevelEntry<S> {
  split: S;
  level: number;
  /** The levelPriority the split was queued with (its cached Priority at offer time). */
  levelPriority: number;
  sequence: number;
  /** Position in its level's heap; −1 when not queued. */
  heapIndex: number;
  /** Maintained by the queue's `SplitIndex`. */
  queued: boolean;
}

function less<S>(a: LevelEntry<S>, b: LevelEntry<S>): boolean {
  return (
    a.levelPriority < b.levelPriority ||
    (a.levelPriority === b.levelPriority && a.sequence < b.sequence)
  );
}

export function compareEntries<S>(a: LevelEntry<S>, b: LevelEntry<S>): number {
  return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}

export class LevelHeap<S> {
  private readonly entries: LevelEntry<S>[] = [];

  get size(): number {
    return this.entries.length;
  }

  push(entry: LevelEntry<S>): void {
    this.entries.push(entry);
    this.siftUp(entry, this.entries.length - 1);
  }

  pop(): LevelEntry<S> | undefined {
    const entries = this.entries;
    const top = entries[0];
    const last = entries.pop();
    if (top === undefined || last === undefined) return undefined;
    top.heapIndex = -1;
    if (entries.length > 0) this.siftDown(last, 0);
    return top;
  }

  /** False when the entry is not in this heap. */
  remove(entry: LevelEntry<S>): boolean {
    const entries = this.entries;
    const i = entry.heapIndex;
    if (i < 0 || entries[i] !== entry) return false;
    const last = entries.pop()!;
    entry.heapIndex = -1;
    if (i < entries.length) {
      this.siftUp(last, i);
      if (last.heapIndex === i) this.siftDown(last, i);
    }
    return true;
  }

  /** Empties the level; returns its entries sorted by `(levelPriority, sequence)`. */
  clear(): LevelEntry<S>[] {
    const all = this.entries.splice(0, this.entries.length);
    for (const entry of all) entry.heapIndex = -1;
    return all.sort(compareEntries);
  }

  private siftUp(entry: LevelEntry<S>, start: number): void {
    const entries = this.entries;
    let i = start;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = entries[parentIndex]!;
      if (!less(entry, parent)) break;
      entries[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    entries[i] = entry;
    entry.heapIndex = i;
  }

  private siftDown(entry: LevelEntry<S>, start: number): void {
    const entries = this.entries;
    const n = entries.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = left;
      let childEntry = entries[left]!;
      if (left + 1 < n) {
        const right = entries[left + 1]!;
        if (less(right, childEntry)) {
          child = left + 1;
          childEntry = right;
        }
      }
      if (!less(childEntry, entry)) break;
      entries[i] = childEntry;
      childEntry.heapIndex = i;
      i = child;
    }
    entries[i] = entry;
    entry.heapIndex = i;
  }
}
