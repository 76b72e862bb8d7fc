/**
 * The `fifo` baseline (DESIGN.md §3.3): splits run in the order they were offered; a re-offered
 * split goes to the back. A doubly linked list indexed by split id gives O(1) offer, take and
 * remove with no tombstones, so memory is exactly the queued splits.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { LevelStat, OfferReason, ReadyQueue, ReadySplit } from '../ready-queue.ts';

interface Node<S> {
  readonly split: S;
  prev: Node<S> | null;
  next: Node<S> | null;
}

export class FifoQueue<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'fifo' as const;

  private readonly nodes = new Map<number, Node<S>>();
  private head: Node<S> | null = null;
  private tail: Node<S> | null = null;
  private scheduledNanos = 0;
  private selections = 0;

  get size(): number {
    return this.nodes.size;
  }

  offer(split: S, _now?: number, _reason?: OfferReason): void {
    if (this.nodes.has(split.id)) {
      throw new SchedLabError('DUPLICATE_ID', `split ${split.id} is already queued`, 'split.id');
    }
    const node: Node<S> = { split, prev: this.tail, next: null };
    if (this.tail === null) this.head = node;
    else this.tail.next = node;
    this.tail = node;
    this.nodes.set(split.id, node);
  }

  take(_now?: number): S | null {
    const node = this.head;
    if (node === null) return null;
    this.unlink(node);
    this.selections++;
    return node.split;
  }

  remove(split: S): boolean {
    const node = this.nodes.get(split.id);
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
    for (let node = this.head; node !== null; node = node.next) out.push(node.split);
    this.nodes.clear();
    this.head = null;
    this.tail = null;
    return out;
  }

  levels(): LevelStat[] {
    return [
      {
        level: 0,
        label: 'fifo',
        depth: this.nodes.size,
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
    this.nodes.delete(node.split.id);
  }
}
