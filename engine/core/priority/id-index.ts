/**
 * The PRIO queue's index `id → slot`. Ids are arbitrary numbers or strings, but in practice they
 * are integer counters (split ids, batch ids), and a `Map` costs a push and a pop several cache
 * misses each at 100k+ entries. So integer ids live in an open-addressing hash table over typed
 * arrays (linear probing, Fibonacci hashing, at most half full, backward-shift deletion: no
 * tombstones), one probe run per lookup; any other id goes to a `Map`. Both shrink back when
 * mostly empty, so memory follows the live count.
 */
import type { TaskId } from './queued-task.ts';

const MIN_CAPACITY = 128;
/** Tables this small never shrink: the memory is trivial and small queues skip the rehashing. */
const SHRINK_ABOVE = 2048;

export class IdIndex {
  /** The id in each cell; only meaningful where `slots` is non-zero. */
  private ids = new Float64Array(MIN_CAPACITY);
  /** slot + 1 per cell; 0 marks an empty cell (a fresh `Int32Array` is all empty). */
  private slots = new Int32Array(MIN_CAPACITY);
  private shift = 32 - Math.log2(MIN_CAPACITY);
  private count = 0;
  private readonly others = new Map<TaskId, number>();

  get size(): number {
    return this.count + this.others.size;
  }

  /** The slot of `id`, or −1 when it is not indexed. */
  get(id: TaskId): number {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return this.others.get(id) ?? -1;
    const { ids, slots } = this;
    const mask = slots.length - 1;
    for (let i = this.home(id); ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      if (ids[i] === id) return slot - 1;
    }
  }

  has(id: TaskId): boolean {
    return this.get(id) >= 0;
  }

  /** Indexes a new `id` at `slot` and returns true; false (and no change) when `id` is indexed. */
  add(id: TaskId, slot: number): boolean {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      if (this.others.has(id)) return false;
      this.others.set(id, slot);
      return true;
    }
    const { ids, slots } = this;
    const mask = slots.length - 1;
    let i = this.home(id);
    for (; slots[i] !== 0; i = (i + 1) & mask) if (ids[i] === id) return false;
    ids[i] = id;
    slots[i] = slot + 1;
    if (++this.count * 2 > slots.length) this.rehash(slots.length * 2);
    return true;
  }

  /** Re-points an indexed `id` at `slot` (after its task moved). */
  move(id: TaskId, slot: number): void {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      this.others.set(id, slot);
      return;
    }
    const { ids, slots } = this;
    const mask = slots.length - 1;
    let i = this.home(id);
    while (slots[i] !== 0 && ids[i] !== id) i = (i + 1) & mask;
    slots[i] = slot + 1;
  }

  /** Forgets `id`; false when it was not indexed. */
  delete(id: TaskId): boolean {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return this.others.delete(id);
    const { ids, slots } = this;
    const mask = slots.length - 1;
    let hole = this.home(id);
    for (;;) {
      if (slots[hole] === 0) return false;
      if (ids[hole] === id) break;
      hole = (hole + 1) & mask;
    }
    // Backward-shift deletion: pull later cells of the probe run into the hole whenever the hole
    // lies on their probe path, so lookups never need tombstones.
    for (let i = (hole + 1) & mask; slots[i] !== 0; i = (i + 1) & mask) {
      const home = this.home(ids[i]!);
      const stays = hole <= i ? hole < home && home <= i : hole < home || home <= i;
      if (stays) continue;
      ids[hole] = ids[i]!;
      slots[hole] = slots[i]!;
      hole = i;
    }
    slots[hole] = 0;
    // Shrinks to a quarter full once a sixteenth full: memory follows the live count, and a
    // draining queue rehashes a geometrically shrinking table, O(1) amortized per delete.
    if (--this.count * 16 < slots.length && slots.length > SHRINK_ABOVE) {
      let capacity = MIN_CAPACITY;
      while (capacity < this.count * 4) capacity *= 2;
      this.rehash(capacity);
    }
    return true;
  }

  clear(): void {
    this.ids = new Float64Array(MIN_CAPACITY);
    this.slots = new Int32Array(MIN_CAPACITY);
    this.shift = 32 - Math.log2(MIN_CAPACITY);
    this.count = 0;
    this.others.clear();
  }

  /** Cell where the probe run for `id` (a safe integer) starts. */
  private home(id: number): number {
    // Ids past int32 fold their high bits into the low 32 so they stay spread; then Fibonacci.
    const low = id | 0;
    const folded = low === id ? low : low ^ Math.imul((id / 4294967296) | 0, 0x85ebca6b);
    return Math.imul(folded, 0x9e3779b1) >>> this.shift;
  }

  private rehash(capacity: number): void {
    const { ids, slots } = this;
    this.ids = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
    this.shift = 32 - Math.log2(capacity);
    const mask = capacity - 1;
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j]!;
      if (slot === 0) continue;
      const id = ids[j]!;
      let i = this.home(id);
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.ids[i] = id;
      this.slots[i] = slot;
    }
  }
}
