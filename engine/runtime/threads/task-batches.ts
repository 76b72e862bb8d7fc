/**
 * Tiny tasks would spend most of their cost in the priority queue, so `TaskPool` queues *batches*:
 * consecutive submissions of one priority, in the same tick, share one PRIO-queue entry (up to
 * `batchLimit` tasks). The order is exactly that of queueing each task alone — a batch holds a run
 * of arrivals that nothing else arrived between, and is sealed once the pool starts handing work
 * out — so priority order and FIFO among equals are kept; aging applies to the batch (its tasks
 * arrived at the same queue time).
 *
 * `maxQueued` counts tasks, not batches.
 */
import { QueueFullError } from '../../core/priority/index.ts';
import type { TaskQueue } from './task-queue.ts';

export interface Batch<T> {
  readonly priority: number;
  readonly items: T[];
}

export const MAX_BATCH = 64;

export class TaskBatches<T> {
  private open: Batch<T> | null = null;
  private count = 0;
  private nextId = 0;
  private refused = 0;
  /** Tasks per batch; `TaskPool` lowers it for long tasks so priority stays fine-grained. */
  batchLimit = MAX_BATCH;

  constructor(
    private readonly queue: TaskQueue<Batch<T>>,
    private readonly maxQueued: number,
  ) {}

  /** Queued tasks. */
  get size(): number {
    return this.count;
  }

  /** Tasks refused because the queue was full. */
  get rejected(): number {
    return this.refused;
  }

  /** Throws (and queues nothing) for a bad priority or a full queue. */
  push(item: T, priority: number): void {
    if (this.count >= this.maxQueued) {
      this.refused++;
      throw new QueueFullError(this.maxQueued);
    }
    const open = this.open;
    if (open !== null && open.priority === priority && open.items.length < this.batchLimit) {
      open.items.push(item);
    } else {
      const batch: Batch<T> = { priority, items: [item] };
      this.queue.push(this.nextId++, batch, priority);
      this.open = batch;
    }
    this.count++;
  }

  /** Later submissions start a new batch: called before work is handed out. */
  seal(): void {
    this.open = null;
  }

  /** The most urgent batch, removed whole; null when empty. */
  pop(): T[] | null {
    const batch = this.queue.pop()?.item;
    if (batch === undefined) return null;
    if (batch === this.open) this.open = null;
    this.count -= batch.items.length;
    return batch.items;
  }

  tick(now: number): void {
    this.queue.tick?.(now);
  }
}
