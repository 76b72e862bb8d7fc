/**
 * PRIO's queue (docs/design.md §3.2): a binary heap of `[effectivePriority, sequence, id]` entries plus
 * an index `id → entry`. Smaller priority = more urgent; equal priorities leave in arrival order.
 *
 * Layout, for speed at 100k+ tasks: each task lives in a numbered slot of a `SlotTable` (a
 * numeric record per slot in one typed array, slots reused through a free list, so a push
 * allocates nothing); the heap is a `KeyHeap` of `(key, slot)` pairs where the key packs
 * `[effectivePriority, sequence]` into one exact double (`task-key.ts`); an `IdIndex` maps id →
 * slot (integer ids in a flat hash table, others in a Map).
 *
 * `remove` and `updatePriority` are O(log n) by lazy deletion: the old slot becomes a tombstone
 * (dropping its id and item) and, for an update, the task moves to a fresh slot, pushed under its
 * new key with a new sequence, so it goes behind the tasks already waiting at its new priority
 * (seed 001's `update_priority`; docs/prio.md). An aging re-key moves it the same way but keeps
 * its sequence: waiting longer never costs a task its place among equals. `pop` skips tombstones
 * and frees their slots. When tombstones
 * outnumber `max(compactionMin, live)` the heap is rebuilt from the live slots in O(n), so it never
 * holds more than about twice the live tasks; the table shrinks back once mostly unused.
 *
 * Time is passed in: `tick(now)` re-evaluates aging and re-keys the tasks whose effective
 * priority changed; pushes are aged as of the last `tick`. Nothing here reads a clock.
 */
import { effectivePriority } from './aging.ts';
import { assertPriority } from './bands.ts';
import {
  DEFAULT_PRIORITY_QUEUE_CONFIG,
  mergeQueueConfig,
  type PriorityQueueConfig,
} from './config.ts';
import { IdIndex } from './id-index.ts';
import { KeyHeap } from './key-heap.ts';
import type { QueuedTask, TaskId } from './queued-task.ts';
import { checkSequenceLimit, checkTask, checkTime, duplicate } from './queue-checks.ts';
import { QueueFullError } from './queue-full-error.ts';
import { QuotaIndex } from './quota-index.ts';
import { dropTombstones, renumberSequences, repackSlots } from './slot-heap-ops.ts';
import { MIN_SLOTS, SHRINK_ABOVE, SlotTable } from './slot-table.ts';
import { packKey, priorityOfKey, SEQUENCE_LIMIT, sequenceOfKey } from './task-key.ts';

export type { QueuedTask, TaskId } from './queued-task.ts';

export interface BulkItem<T> {
  readonly id: TaskId;
  readonly item: T;
  readonly priority: number;
  readonly readySince?: number;
}

export class PriorityTaskQueue<T> {
  private readonly heap = new KeyHeap(MIN_SLOTS);
  private readonly table = new SlotTable<T>(MIN_SLOTS);
  private readonly index = new IdIndex();
  private cfg: PriorityQueueConfig;
  private quota: QuotaIndex | null = null;
  private dead = 0;
  private nextSequence = 0;
  private now = 0;
  private rejectedCount = 0;
  private compactionCount = 0;
  private lastBase = 0;
  /** Aging re-keys that made a queued task more urgent, by the task's base priority (0..100). */
  private readonly boosts = new Array<number>(101).fill(0);

  /**
   * `sequenceLimit`: the sequence at which live tasks are renumbered 0..live−1 (default
   * `SEQUENCE_LIMIT`, reached after 2^45 pushes); only tests lower it, to exercise renumbering.
   */
  constructor(
    config: Partial<PriorityQueueConfig> = {},
    private readonly sequenceLimit: number = SEQUENCE_LIMIT,
  ) {
    checkSequenceLimit(sequenceLimit);
    this.cfg = mergeQueueConfig(DEFAULT_PRIORITY_QUEUE_CONFIG, config);
    if (this.cfg.quotaBurst > 0) this.quota = new QuotaIndex(this.table, this.table.live());
  }

  get config(): PriorityQueueConfig {
    return this.cfg;
  }

  /** Live entries. */
  get size(): number {
    return this.index.size;
  }

  /** Entries in the heap array, tombstones included. */
  get heapLength(): number {
    return this.heap.length;
  }

  /** Slots the queue has memory for (live, tombstones and free); grows by doubling, shrinks back. */
  get capacity(): number {
    return this.table.capacity;
  }

  /** Pushes refused because the queue was at `maxQueued`. */
  get rejected(): number {
    return this.rejectedCount;
  }

  get compactions(): number {
    return this.compactionCount;
  }

  /**
   * Aging boosts so far, by base priority: each time aging re-keys a queued task to a more urgent
   * effective priority (a `tick`, or an aging knob changed live) counts one for the task's base
   * priority. Never decreases (docs/metrics.md).
   */
  get agingBoostsByPriority(): readonly number[] {
    return this.boosts;
  }

  /** The time of the last `tick` (ns); pushes are aged as of this time. */
  get time(): number {
    return this.now;
  }

  has(id: TaskId): boolean {
    return this.index.has(id);
  }

  /** Base priority of a queued task; undefined when `id` is not queued. */
  basePriorityOf(id: TaskId): number | undefined {
    const slot = this.index.get(id);
    return slot < 0 ? undefined : this.table.base(slot);
  }

  /**
   * Queues `item` under `id`. `readySince` starts its aging clock (default: the last tick).
   * Throws `DUPLICATE_ID` for a queued id, `INVALID_ARGUMENT` for a priority outside 0..100 and
   * `QueueFullError` at `maxQueued`.
   */
  push(id: TaskId, item: T, priority: number, readySince: number = this.now): void {
    checkTask(priority, readySince);
    if (this.index.size >= this.cfg.maxQueued) {
      if (this.index.has(id)) throw duplicate(id);
      this.reject(1);
    }
    if (this.nextSequence >= this.sequenceLimit) this.renumber();
    const key = packKey(this.aged(priority, readySince), this.nextSequence);
    const slot = this.table.alloc(id, item, key, priority, readySince);
    // One probe both rejects a duplicate and indexes the new task.
    if (!this.index.add(id, slot)) {
      this.table.release(slot);
      throw duplicate(id);
    }
    this.nextSequence++;
    this.heap.push(key, slot);
    if (this.quota !== null) this.quota.add(slot);
  }

  /** Queues all of `items` or none: validated first, then appended and heapified in O(n). */
  bulkPush(items: readonly BulkItem<T>[]): void {
    const ids = new Set<TaskId>();
    for (const { id, priority, readySince = this.now } of items) {
      checkTask(priority, readySince);
      if (ids.has(id) || this.index.has(id)) throw duplicate(id);
      ids.add(id);
    }
    if (this.index.size + items.length > this.cfg.maxQueued) this.reject(items.length);
    if (this.nextSequence + items.length > this.sequenceLimit) this.renumber();
    const heap = this.heap;
    const start = heap.length;
    for (const { id, item, priority, readySince = this.now } of items) {
      const key = packKey(this.aged(priority, readySince), this.nextSequence++);
      const slot = this.table.alloc(id, item, key, priority, readySince);
      this.index.add(id, slot);
      heap.append(key, slot);
      if (this.quota !== null) this.quota.add(slot);
    }
    // Sifting k new entries up costs k·log n; heapifying the whole array costs n. Pick the cheaper.
    const n = heap.length;
    if (items.length * Math.log2(n + 1) < n) {
      for (let i = start; i < n; i++) heap.siftUp(i);
    } else {
      heap.heapify();
    }
  }

  /** The task `pop` would return, left in place; null when empty. */
  peek(): QueuedTask<T> | null {
    const slot = this.selectNext();
    return slot < 0 ? null : this.table.snapshot(slot);
  }

  /** Removes and returns the most urgent live task (or, when the quota is due, a lower band's oldest). */
  pop(): QueuedTask<T> | null {
    const slot = this.selectNext();
    if (slot < 0) return null;
    const task = this.table.snapshot(slot);
    this.take(slot);
    return task;
  }

  /**
   * `pop` without the snapshot, for a caller on the hot path: the task's item, or undefined when
   * empty; its base priority is then `lastPoppedPriority`.
   */
  popItem(): T | undefined {
    const slot = this.selectNext();
    if (slot < 0) return undefined;
    const item = this.table.item(slot);
    this.lastBase = this.table.base(slot);
    this.take(slot);
    return item;
  }

  /** Base priority of the task the last `popItem` returned. */
  get lastPoppedPriority(): number {
    return this.lastBase;
  }

  /** Lazily removes a queued task; false when `id` is not queued. */
  remove(id: TaskId): boolean {
    const slot = this.index.get(id);
    if (slot < 0) return false;
    this.index.delete(id);
    this.table.kill(slot);
    this.dead++;
    this.maybeCompact();
    return true;
  }

  /**
   * Sets a queued task's base priority (its aging clock keeps running); false when `id` is not
   * queued. The task is pushed again with a new sequence, even at an unchanged priority: an
   * explicit re-prioritisation puts it behind the tasks already waiting at its new priority.
   */
  updatePriority(id: TaskId, priority: number): boolean {
    assertPriority(priority);
    if (!this.index.has(id)) return false;
    // Renumbering may repack the slots, so the slot is looked up after it.
    if (this.nextSequence >= this.sequenceLimit) this.renumber();
    const slot = this.index.get(id);
    const table = this.table;
    table.setBase(slot, priority);
    this.rekey(slot, this.aged(priority, table.readySince(slot)), this.nextSequence++);
    this.maybeCompact();
    return true;
  }

  /** Advances the queue's time to `now` and re-keys every task whose aging boost changed. */
  tick(now: number): number {
    checkTime(now);
    this.now = now;
    return this.reevaluate();
  }

  /** Rebuilds the heap from the live entries in O(n); heap length drops to `size`. */
  compact(): void {
    dropTombstones(this.heap, this.table);
    this.dead = 0;
    this.compactionCount++;
    // Repacking rebuilds the quota index too; otherwise drop its stale pairs here.
    if (!this.maybeShrink()) this.quota?.rebuild(this.table.live());
  }

  /** Removes and returns every live task, most urgent first (the quota does not apply). */
  drain(): QueuedTask<T>[] {
    const out: QueuedTask<T>[] = [];
    const { heap, table } = this;
    while (heap.length > 0) {
      const slot = heap.topSlot;
      heap.removeTop();
      if (table.isLive(slot)) out.push(this.table.snapshot(slot));
      table.release(slot);
    }
    this.index.clear();
    this.dead = 0;
    this.maybeShrink();
    if (this.quota !== null) {
      this.quota.rebuild([]);
      this.quota.resetStreak();
    }
    return out;
  }

  /** Validates and applies `partial` live; aging changes re-key at the current time. */
  configure(partial: Partial<PriorityQueueConfig>): void {
    const before = this.cfg;
    this.cfg = mergeQueueConfig(before, partial);
    if (before.quotaBurst > 0 !== this.cfg.quotaBurst > 0) {
      this.quota = this.cfg.quotaBurst > 0 ? new QuotaIndex(this.table, this.table.live()) : null;
    }
    const cfg = this.cfg;
    if (
      before.aging !== cfg.aging ||
      before.agingAfterNanos !== cfg.agingAfterNanos ||
      before.agingStepNanos !== cfg.agingStepNanos ||
      before.agingCap !== cfg.agingCap
    ) {
      this.reevaluate(true);
    }
    this.maybeCompact();
  }

  private reevaluate(force = false): number {
    if (!this.cfg.aging && !force) return 0;
    let changed = 0;
    // Compaction waits for the end of the scan: it renumbers slots, which would make the scan skip
    // some. The slots a re-key fills are already current; those past `end` are not even visited.
    const table = this.table;
    const end = table.capacity;
    for (let slot = 0; slot < end; slot++) {
      if (!table.isLive(slot)) continue;
      const base = table.base(slot);
      const effective = this.aged(base, table.readySince(slot));
      const before = priorityOfKey(table.key(slot));
      if (effective !== before) {
        if (effective < before) this.boosts[base]!++;
        this.rekey(slot, effective);
        changed++;
      }
    }
    if (changed > 0) this.maybeCompact();
    return changed;
  }

  private aged(base: number, readySince: number): number {
    return this.cfg.aging ? effectivePriority(base, readySince, this.now, this.cfg) : base;
  }

  /**
   * Moves a live task to a fresh slot under `effective` and `sequence` (by default its own, as for
   * an aging re-key); the old one dies. The caller runs `maybeCompact` afterwards.
   */
  private rekey(
    old: number,
    effective: number,
    sequence: number = sequenceOfKey(this.table.key(old)),
  ): void {
    const table = this.table;
    const key = packKey(effective, sequence);
    const id = table.id(old);
    const slot = table.alloc(id, table.item(old), key, table.base(old), table.readySince(old));
    this.index.move(id, slot);
    table.kill(old);
    this.dead++;
    this.heap.push(key, slot);
    if (this.quota !== null) this.quota.add(slot);
  }

  /** Takes the selected live `slot` out of the queue. */
  private take(slot: number): void {
    const { heap, table } = this;
    this.index.delete(table.id(slot));
    if (slot === heap.topSlot) {
      if (this.quota !== null) this.quota.taken(slot, true);
      heap.removeTop();
      table.release(slot);
      if (heap.length < table.capacity >>> 3) this.maybeShrink();
    } else {
      // Taken by the quota from below the head: its heap entry becomes a tombstone.
      this.quota!.taken(slot, false);
      table.kill(slot);
      this.dead++;
    }
    // A pop shrinks the live count, and with it the number of tombstones allowed.
    this.maybeCompact();
  }

  /** Slot of the heap's live head, freeing the tombstones above it; −1 when empty. */
  private head(): number {
    const { heap, table } = this;
    while (heap.length > 0) {
      const slot = heap.topSlot;
      if (table.isLive(slot)) return slot;
      heap.removeTop();
      table.release(slot);
      this.dead--;
    }
    return -1;
  }

  private selectNext(): number {
    const head = this.head();
    if (head < 0 || this.quota === null) return head;
    return this.quota.choose(head, this.cfg.quotaBurst);
  }

  private maybeCompact(): void {
    if (this.dead === 0 && this.quota === null) return; // the plain push/pop path
    const live = this.index.size;
    const allowed = Math.max(this.cfg.compactionMin, live);
    if (this.dead > allowed) this.compact();
    else if (this.quota !== null && this.quota.length - live > allowed) {
      this.quota.rebuild(this.table.live());
    }
  }

  /**
   * Once the heap uses under an eighth of the table, moves its slots to the front of a table of
   * twice its length (rounded up to a power of two): memory follows the queue back down, and the
   * gap between the thresholds keeps a queue that hovers near one from repacking back and forth.
   */
  private maybeShrink(): boolean {
    const capacity = this.table.capacity;
    if (capacity <= SHRINK_ABOVE || this.heap.length >= capacity >>> 3) return false;
    repackSlots(this.heap, this.table, this.index);
    this.quota?.rebuild(this.table.live());
    return true;
  }

  /**
   * Renumbers the live tasks' sequences 0..live−1 in their current order, so sequences never
   * outgrow the key (`task-key.ts`). Tombstones go first (a compaction): theirs are not renumbered.
   */
  private renumber(): void {
    this.compact();
    this.nextSequence = renumberSequences(this.heap, this.table);
    this.quota?.rebuild(this.table.live());
  }

  private reject(count: number): never {
    this.rejectedCount += count;
    throw new QueueFullError(this.cfg.maxQueued);
  }
}
