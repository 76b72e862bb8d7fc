/**
 * PRIO's queue (DESIGN.md §3.2): a binary heap of `[effectivePriority, sequence, id]` entries plus
 * a `Map id → entry`. Smaller priority = more urgent; equal priorities leave in arrival order.
 *
 * `remove` and `updatePriority` are O(log n) by lazy deletion: the old entry becomes a tombstone
 * (dropping its item) and, for an update, a fresh entry is pushed. `pop` skips tombstones. When
 * tombstones outnumber `max(compactionMin, live)` the heap is rebuilt from the live entries in
 * O(n), so the heap never holds more than about twice the live entries.
 *
 * Time is passed in: `tick(now)` re-evaluates aging and re-keys the entries whose effective
 * priority changed; pushes are aged as of the last `tick`. Nothing here reads a clock.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { effectivePriority } from './aging.ts';
import { assertPriority } from './bands.ts';
import {
  DEFAULT_PRIORITY_QUEUE_CONFIG,
  mergeQueueConfig,
  type PriorityQueueConfig,
} from './config.ts';
import {
  Entry,
  heapify,
  heapPop,
  heapPush,
  kill,
  siftUp,
  view,
  type QueuedTask,
  type TaskId,
} from './entry-heap.ts';
import { QueueFullError } from './queue-full-error.ts';
import { QuotaIndex } from './quota-index.ts';

export type { QueuedTask } from './entry-heap.ts';

export interface BulkItem<T> {
  readonly id: TaskId;
  readonly item: T;
  readonly priority: number;
  readonly readySince?: number;
}

export class PriorityTaskQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private readonly index = new Map<TaskId, Entry<T>>();
  private cfg: PriorityQueueConfig;
  private quota: QuotaIndex<T> | null = null;
  private dead = 0;
  private nextSequence = 0;
  private now = 0;
  private rejectedCount = 0;
  private compactionCount = 0;
  /** Hand-off from `popEntry` (the entry drops its item when it dies). */
  private popped: T | undefined = undefined;
  private lastBase = 0;

  constructor(config: Partial<PriorityQueueConfig> = {}) {
    this.cfg = mergeQueueConfig(DEFAULT_PRIORITY_QUEUE_CONFIG, config);
    if (this.cfg.quotaBurst > 0) this.quota = new QuotaIndex(this.index.values());
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

  /** Pushes refused because the queue was at `maxQueued`. */
  get rejected(): number {
    return this.rejectedCount;
  }

  get compactions(): number {
    return this.compactionCount;
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
    return this.index.get(id)?.base;
  }

  /**
   * Queues `item` under `id`. `readySince` starts its aging clock (default: the last tick).
   * Throws `DUPLICATE_ID` for a queued id, `INVALID_ARGUMENT` for a priority outside 0..100 and
   * `QueueFullError` at `maxQueued`.
   */
  push(id: TaskId, item: T, priority: number, readySince: number = this.now): void {
    this.checkNew(id, priority, readySince);
    if (this.index.size >= this.cfg.maxQueued) this.reject(1);
    const entry = new Entry(
      this.aged(priority, readySince),
      this.nextSequence++,
      id,
      item,
      priority,
      readySince,
    );
    this.index.set(id, entry);
    heapPush(this.heap, entry);
    if (this.quota !== null) this.quota.add(entry);
  }

  /** Queues all of `items` or none: validated first, then appended and heapified in O(n). */
  bulkPush(items: readonly BulkItem<T>[]): void {
    const ids = new Set<TaskId>();
    for (const { id, priority, readySince = this.now } of items) {
      this.checkNew(id, priority, readySince);
      if (ids.has(id)) throw duplicate(id);
      ids.add(id);
    }
    if (this.index.size + items.length > this.cfg.maxQueued) this.reject(items.length);
    const start = this.heap.length;
    for (const { id, item, priority, readySince = this.now } of items) {
      const entry = new Entry(
        this.aged(priority, readySince),
        this.nextSequence++,
        id,
        item,
        priority,
        readySince,
      );
      this.index.set(id, entry);
      this.heap.push(entry);
      if (this.quota !== null) this.quota.add(entry);
    }
    // Sifting k new entries up costs k·log n; heapifying the whole array costs n. Pick the cheaper.
    const n = this.heap.length;
    if (items.length * Math.log2(n + 1) < n) {
      for (let i = start; i < n; i++) siftUp(this.heap, i);
    } else {
      heapify(this.heap);
    }
  }

  /** The task `pop` would return, left in place; null when empty. */
  peek(): QueuedTask<T> | null {
    const entry = this.selectNext();
    return entry === undefined ? null : view(entry, entry.item as T);
  }

  /** Removes and returns the most urgent live task (or, when the quota is due, a lower band's oldest). */
  pop(): QueuedTask<T> | null {
    const entry = this.popEntry();
    if (entry === undefined) return null;
    const item = this.popped as T;
    this.popped = undefined;
    return view(entry, item);
  }

  /**
   * `pop` without the snapshot, for a caller on the hot path: the task's item, or undefined when
   * empty; its base priority is then `lastPoppedPriority`.
   */
  popItem(): T | undefined {
    const entry = this.popEntry();
    if (entry === undefined) return undefined;
    this.lastBase = entry.base;
    const item = this.popped;
    this.popped = undefined;
    return item;
  }

  /** Base priority of the task the last `popItem` returned. */
  get lastPoppedPriority(): number {
    return this.lastBase;
  }

  /** Takes the next entry out (a tombstone afterwards); its item is left in `popped`. */
  private popEntry(): Entry<T> | undefined {
    const entry = this.selectNext();
    if (entry === undefined) return undefined;
    this.popped = entry.item;
    if (entry === this.heap[0]) {
      heapPop(this.heap);
      if (this.quota !== null) this.quota.taken(entry, true);
    } else {
      // Taken by the quota from below the head: its heap slot becomes a tombstone.
      this.quota!.taken(entry, false);
      this.dead++;
    }
    this.index.delete(entry.id);
    kill(entry);
    // A pop shrinks the live count, and with it the number of tombstones allowed.
    this.maybeCompact();
    return entry;
  }

  /** Lazily removes a queued task; false when `id` is not queued. */
  remove(id: TaskId): boolean {
    const entry = this.index.get(id);
    if (entry === undefined) return false;
    this.index.delete(id);
    kill(entry);
    this.dead++;
    this.maybeCompact();
    return true;
  }

  /**
   * Sets a queued task's base priority (its aging clock keeps running); false when `id` is not
   * queued. Re-keys by lazy deletion when the effective priority changes.
   */
  updatePriority(id: TaskId, priority: number): boolean {
    assertPriority(priority);
    const entry = this.index.get(id);
    if (entry === undefined) return false;
    entry.base = priority;
    const effective = this.aged(priority, entry.readySince);
    if (effective !== entry.priority) this.rekey(entry, effective);
    return true;
  }

  /** Advances the queue's time to `now` and re-keys every task whose aging boost changed. */
  tick(now: number): number {
    if (!Number.isFinite(now)) {
      throw new SchedLabError('INVALID_ARGUMENT', `now must be a finite number of ns`, 'now');
    }
    this.now = now;
    return this.reevaluate();
  }

  /** Rebuilds the heap from the live entries in O(n); heap length drops to `size`. */
  compact(): void {
    const heap = this.heap;
    let kept = 0;
    for (let i = 0; i < heap.length; i++) {
      const entry = heap[i]!;
      if (entry.alive) heap[kept++] = entry;
    }
    heap.length = kept;
    heapify(heap);
    this.dead = 0;
    if (this.quota !== null) this.quota.rebuild(this.index.values());
    this.compactionCount++;
  }

  /** Removes and returns every live task, most urgent first (the quota does not apply). */
  drain(): QueuedTask<T>[] {
    const out: QueuedTask<T>[] = [];
    for (let entry = heapPop(this.heap); entry !== undefined; entry = heapPop(this.heap)) {
      if (entry.alive) out.push(view(entry, entry.item as T));
      kill(entry);
    }
    this.index.clear();
    this.dead = 0;
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
      this.quota = this.cfg.quotaBurst > 0 ? new QuotaIndex(this.index.values()) : null;
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
    // Setting an existing key during Map iteration neither repeats nor skips entries.
    for (const entry of this.index.values()) {
      const effective = this.aged(entry.base, entry.readySince);
      if (effective !== entry.priority) {
        this.rekey(entry, effective);
        changed++;
      }
    }
    return changed;
  }

  private aged(base: number, readySince: number): number {
    return this.cfg.aging ? effectivePriority(base, readySince, this.now, this.cfg) : base;
  }

  private rekey(entry: Entry<T>, effective: number): void {
    const fresh = new Entry(
      effective,
      entry.sequence,
      entry.id,
      entry.item as T,
      entry.base,
      entry.readySince,
    );
    kill(entry);
    this.dead++;
    this.index.set(fresh.id, fresh);
    heapPush(this.heap, fresh);
    if (this.quota !== null) this.quota.add(fresh);
    this.maybeCompact();
  }

  /** Live head of the heap, discarding tombstones above it. */
  private head(): Entry<T> | undefined {
    const heap = this.heap;
    let top = heap[0];
    while (top !== undefined && !top.alive) {
      heapPop(heap);
      this.dead--;
      top = heap[0];
    }
    return top;
  }

  private selectNext(): Entry<T> | undefined {
    const head = this.head();
    if (head === undefined || this.quota === null) return head;
    return this.quota.choose(head, this.cfg.quotaBurst);
  }

  private maybeCompact(): void {
    const live = this.index.size;
    const allowed = Math.max(this.cfg.compactionMin, live);
    if (this.dead > allowed) this.compact();
    else if (this.quota !== null && this.quota.length - live > allowed) {
      this.quota.rebuild(this.index.values());
    }
  }

  private checkNew(id: TaskId, priority: number, readySince: number): void {
    assertPriority(priority);
    if (!Number.isFinite(readySince)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'readySince must be a finite number of ns',
        'readySince',
      );
    }
    if (this.index.has(id)) throw duplicate(id);
  }

  private reject(count: number): never {
    this.rejectedCount += count;
    throw new QueueFullError(this.cfg.maxQueued);
  }
}

function duplicate(id: TaskId): SchedLabError {
  return new SchedLabError('DUPLICATE_ID', `id ${String(id)} is already queued`, 'id');
}
