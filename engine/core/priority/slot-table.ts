/**
 * Where the PRIO queue keeps its tasks: one numbered slot per task, slots reused through a free
 * list so a push allocates nothing once the table has grown to the queue's working size. A slot's
 * numbers sit together in one `Float64Array` record (key, readySince, base, state: 32 bytes) and
 * its id and item side by side in one array, so reading a task costs two cache lines, not six.
 * Grows by doubling; `repack` moves the slots still in use to the front of fresh, smaller arrays,
 * so memory follows the queue back down.
 *
 * A slot is FREE (on the free list), LIVE (a queued task) or DEAD (a tombstone: removed, or left
 * behind by a re-keyed task, still in the heap). A slot is in the heap exactly when it is not
 * FREE, so it returns to the free list only when the heap lets go of it.
 */
import type { QueuedTask, TaskId } from './queued-task.ts';
import { priorityOfKey } from './task-key.ts';

export const FREE = 0;
export const LIVE = 1;
export const DEAD = 2;

/** Initial capacity, and the smallest the table shrinks back to. */
export const MIN_SLOTS = 256;
/** Tables this small never shrink: the memory is trivial and small queues skip the repacking. */
export const SHRINK_ABOVE = 1024;

// Offsets in a slot's numeric record.
const KEY = 0;
const READY = 1;
const BASE = 2;
const STATE = 3;
const STRIDE = 4;

export class SlotTable<T> {
  /** Per slot: packed heap key (`task-key.ts`), aging clock start (ns), base priority, state. */
  private nums: Float64Array;
  /**
   * Per slot: id, item. Cleared when a slot dies so a tombstone keeps neither alive. Grown by
   * appending (fresh slots are handed out lowest first), so the array never has holes.
   */
  private refs: unknown[] = [];
  /** Stack of free slot numbers; the most recently freed (cache-warm) slot is reused first. */
  private free: Int32Array;
  private freeCount = 0;

  constructor(capacity: number = MIN_SLOTS) {
    this.nums = new Float64Array(capacity * STRIDE);
    this.free = new Int32Array(capacity);
    this.freeFrom(0);
  }

  get capacity(): number {
    return this.free.length;
  }

  /** Fills a FREE slot as a LIVE task; doubles the table when none is free. */
  alloc(id: TaskId, item: T, key: number, base: number, readySince: number): number {
    if (this.freeCount === 0) this.grow();
    const slot = this.free[--this.freeCount]!;
    const o = slot * STRIDE;
    const nums = this.nums;
    nums[o + KEY] = key;
    nums[o + READY] = readySince;
    nums[o + BASE] = base;
    nums[o + STATE] = LIVE;
    this.refs[2 * slot] = id;
    this.refs[2 * slot + 1] = item;
    return slot;
  }

  /** Makes a LIVE slot a tombstone; it stays off the free list until the heap drops it. */
  kill(slot: number): void {
    this.nums[slot * STRIDE + STATE] = DEAD;
    this.refs[2 * slot] = undefined;
    this.refs[2 * slot + 1] = undefined;
  }

  /** Returns a slot the heap no longer holds to the free list. */
  release(slot: number): void {
    this.nums[slot * STRIDE + STATE] = FREE;
    this.refs[2 * slot] = undefined;
    this.refs[2 * slot + 1] = undefined;
    this.free[this.freeCount++] = slot;
  }

  isLive(slot: number): boolean {
    return this.nums[slot * STRIDE + STATE] === LIVE;
  }

  key(slot: number): number {
    return this.nums[slot * STRIDE + KEY]!;
  }

  setKey(slot: number, key: number): void {
    this.nums[slot * STRIDE + KEY] = key;
  }

  base(slot: number): number {
    return this.nums[slot * STRIDE + BASE]!;
  }

  setBase(slot: number, base: number): void {
    this.nums[slot * STRIDE + BASE] = base;
  }

  readySince(slot: number): number {
    return this.nums[slot * STRIDE + READY]!;
  }

  id(slot: number): TaskId {
    return this.refs[2 * slot] as TaskId;
  }

  item(slot: number): T {
    return this.refs[2 * slot + 1] as T;
  }

  /** What the queue hands out for a LIVE slot: a snapshot, never the slot itself. */
  snapshot(slot: number): QueuedTask<T> {
    const o = slot * STRIDE;
    const nums = this.nums;
    return {
      id: this.refs[2 * slot] as TaskId,
      item: this.refs[2 * slot + 1] as T,
      priority: nums[o + BASE]!,
      effectivePriority: priorityOfKey(nums[o + KEY]!),
      readySince: nums[o + READY]!,
    };
  }

  /** The LIVE slots, lowest first. */
  *live(): Generator<number> {
    for (let slot = 0; slot < this.capacity; slot++) if (this.isLive(slot)) yield slot;
  }

  /**
   * Reallocates at `capacity` with the slots `order[0..count)` moved to 0..count−1 (in that
   * order, state kept) and every other slot free. The caller re-points whatever held the old
   * numbers (the heap, the id index, the quota index).
   */
  repack(order: Int32Array, count: number, capacity: number): void {
    const nums = new Float64Array(capacity * STRIDE);
    const refs: unknown[] = [];
    for (let j = 0; j < count; j++) {
      const s = order[j]!;
      for (let k = 0; k < STRIDE; k++) nums[j * STRIDE + k] = this.nums[s * STRIDE + k]!;
      refs.push(this.refs[2 * s], this.refs[2 * s + 1]);
    }
    this.nums = nums;
    this.refs = refs;
    this.free = new Int32Array(capacity);
    this.freeCount = 0;
    this.freeFrom(count);
  }

  private grow(): void {
    const old = this.capacity;
    const capacity = Math.max(MIN_SLOTS, old * 2);
    const nums = new Float64Array(capacity * STRIDE);
    nums.set(this.nums);
    this.nums = nums;
    this.free = new Int32Array(capacity); // every slot below `old` is in use: the stack was empty
    this.freeFrom(old);
  }

  /** Pushes slots `from..capacity` on the free list so the lowest is handed out first. */
  private freeFrom(from: number): void {
    for (let s = this.capacity - 1; s >= from; s--) this.free[this.freeCount++] = s;
  }
}
