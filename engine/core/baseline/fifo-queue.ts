/**
 * The `fifo` baseline (docs/design.md §3.3): splits run in the order they were offered; a re-offered
 * split goes to the back. A doubly linked list indexed by split id gives O(1) offer, take and
 * remove with no tombstones; nodes are reused while their split is away (see `SplitIndex`).
 */
import type { LevelStat, OfferReason, ReadyQueue, ReadySplit } from '../ready-queue.ts';
import { SplitIndex, type IndexedSplitNode } from '../mlfq/split-index.ts';

interface Node<S> extends IndexedSplitNode {
  /** Null while idle (its split away: running, or ended; `SplitIndex.dequeued`). */
  split: S | null;
  prev: Node<S> | null;
  next: Node<S> | null;
}

export class FifoQueue<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'fifo' as const;

  private readonly index = new SplitIndex<Node<S>>();
  private head: Node<S> | null = null;
  private tail: Node<S> | null = null;
  private scheduledNanos = 0;
  private selections = 0;

  get size(): number {
    return this.index.size;
  }

  offer(split: S, _now?: number, _reason?: OfferReason): void {
    const idle = this.index.idleNode(split.id); // throws DUPLICATE_ID when queued
    const node = idle ?? { split, prev: null, next: null, queued: false };
    node.split = split;
    node.prev = this.tail;
    node.next = null;
    if (this.tail === null) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.index.enqueued(split.id, node, idle === undefined);
  }

  take(_now?: number): S | null {
    const node = this.head;
    if (node === null) return null;
    const split = node.split!;
    this.unlink(node);
    this.selections++;
    return split;
  }

  remove(split: S): boolean {
    const node = this.index.queuedNode(split.id);
    if (node === undefined || node.split !== split) return false;
    this.unlink(node);
    return true;
  }

  charge(_split: S, quantumNanos: number, _now?: number): void {
    this.scheduledNanos += quantumNanos;
  }

  tick(_now?: number): void {
    // Arrival order never changes with time.
  }

  drain(): S[] {
    const out: S[] = [];
    for (let node = this.head; node !== null; node = node.next) out.push(node.split!);
    this.index.clear();
    this.head = null;
    this.tail = null;
    return out;
  }

  levels(): LevelStat[] {
    return [
      {
        level: 0,
        label: 'fifo',
        depth: this.index.size,
        scheduledNanos: this.scheduledNanos,
        selections: this.selections,
      },
    ];
  }

  private unlink(node: Node<S>): void {
    if (node.prev === null) this.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) this.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = null;
    node.next = null;
    this.index.dequeued(node);
  }
}
