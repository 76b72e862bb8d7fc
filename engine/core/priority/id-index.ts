/**
 * The PRIO queue's index `id → slot`. Ids are arbitrary numbers or strings, but in practice they
 * are integer counters (split ids, batch ids), and a `Map` costs a push and a pop several cache
 * misses each at 100k+ entries. So integer ids live in an open-addressing hash table over typed
 * arrays — Robin Hood linear probing, at most half full, backward-shift deletion (no tombstones).
 * Its hash starts as the identity on the low bits, so a counter's ids sit in consecutive cells,
 * each at its home (no probing, no shifting), and its new ids land on the cache lines its last
 * ones warmed. Ids that collide in the low bits (a power-of-two stride, two interleaved counters)
 * would make long runs of that, so the first insertion that has to walk past `MAX_RUN` cells
 * switches the table to Fibonacci hashing for good. Any other id goes to a `Map`. Both shrink back
 * when mostly empty.
 */
import type { TaskId } from './queued-task.ts';

const MIN_CAPACITY = 1024;
/** Tables this small never shrink: the memory is trivial and small queues skip the rehashing. */
const SHRINK_ABOVE = 2048;
/** An insertion walking further than this means the ids collide in the low bits: scatter them. */
const MAX_RUN = 32;

export class IdIndex {
  /** The id in each cell; only meaningful where `slots` is non-zero. */
  private ids = new Float64Array(MIN_CAPACITY);
  /** slot + 1 per cell; 0 marks an empty cell (a fresh `Int32Array` is all empty). */
  private slots = new Int32Array(MIN_CAPACITY);
  private bits = Math.log2(MIN_CAPACITY);
  private count = 0;
  /** Whether the hash is Fibonacci (scattering) rather than the identity on the low bits. */
  private scattered = false;
  private readonly others = new Map<TaskId, number>();

  get size(): number {
    return this.count + this.others.size;
  }

  /** The slot of `id`, or −1 when it is not indexed. */
  get(id: TaskId): number {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return this.others.get(id) ?? -1;
    const cell = this.find(id);
    return cell < 0 ? -1 : this.slots[cell]! - 1;
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
    for (let distance = 0; ; i = (i + 1) & mask, distance++) {
      if (slots[i] === 0) break;
      if (ids[i] === id) return false;
      // Robin Hood: `id` would sit here if it were indexed, so it is not; insert from here.
      if (((i - this.home(ids[i]!)) & mask) < distance) break;
    }
    const walked = this.insertAt(i, id, slot + 1);
    if (++this.count * 2 > slots.length) {
      this.rehash(slots.length * 2);
    } else if (walked > MAX_RUN && !this.scattered) {
      this.scattered = true;
      this.rehash(slots.length);
    }
    return true;
  }

  /** Re-points an indexed `id` at `slot` (after its task moved). */
  move(id: TaskId, slot: number): void {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      this.others.set(id, slot);
      return;
    }
    const cell = this.find(id);
    if (cell >= 0) this.slots[cell] = slot + 1;
  }

  /** Forgets `id`; false when it was not indexed. */
  delete(id: TaskId): boolean {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return this.others.delete(id);
    let hole = this.find(id);
    if (hole < 0) return false;
    const { ids, slots } = this;
    const mask = slots.length - 1;
    // Backward shift: pull the rest of the run back one cell until an empty cell or an entry
    // already at its home — in Robin Hood order nothing past it can be displaced across the hole.
    for (let i = (hole + 1) & mask; slots[i] !== 0; i = (i + 1) & mask) {
      if (this.home(ids[i]!) === i) break;
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
    this.bits = Math.log2(MIN_CAPACITY);
    this.count = 0;
    this.scattered = false;
    this.others.clear();
  }

  /** Cell holding the integer `id`, or −1. */
  private find(id: number): number {
    const { ids, slots } = this;
    const mask = slots.length - 1;
    for (let i = this.home(id), distance = 0; ; i = (i + 1) & mask, distance++) {
      if (slots[i] === 0) return -1;
      if (ids[i] === id) return i;
      if (((i - this.home(ids[i]!)) & mask) < distance) return -1;
    }
  }

  /** Cell where the probe run for `id` (a safe integer) starts. */
  private home(id: number): number {
    // Ids past int32 fold their high half into the low one first.
    const low = id | 0;
    const folded = low === id ? low : low ^ Math.imul((id / 4294967296) | 0, 0x85ebca6b);
    return this.scattered
      ? Math.imul(folded, 0x9e3779b1) >>> (32 - this.bits)
      : folded & (this.slots.length - 1);
  }

  /**
   * Robin Hood insertion of a new entry from cell `start` (on its probe path); returns how many
   * cells it walked from the entry's home, displaced entries included.
   */
  private insertAt(start: number, id: number, slotPlusOne: number): number {
    const { ids, slots } = this;
    const mask = slots.length - 1;
    let i = start;
    let carriedId = id;
    let carriedSlot = slotPlusOne;
    let distance = (i - this.home(carriedId)) & mask;
    let walked = distance;
    for (;;) {
      if (slots[i] === 0) {
        ids[i] = carriedId;
        slots[i] = carriedSlot;
        return walked;
      }
      const theirs = (i - this.home(ids[i]!)) & mask;
      if (theirs < distance) {
        // Take the cell from the entry nearer its home; carry that one on.
        const evictedId = ids[i]!;
        const evictedSlot = slots[i]!;
        ids[i] = carriedId;
        slots[i] = carriedSlot;
        carriedId = evictedId;
        carriedSlot = evictedSlot;
        distance = theirs;
      }
      i = (i + 1) & mask;
      distance++;
      walked++;
    }
  }

  private rehash(capacity: number): void {
    const { ids, slots } = this;
    this.ids = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
    this.bits = Math.log2(capacity);
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j]!;
      if (slot !== 0) this.insertAt(this.home(ids[j]!), ids[j]!, slot);
    }
  }
}
