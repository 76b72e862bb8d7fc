/**
 * A worker's private stack of nodes it made ready (docs/design.md §3.4): pushed and popped with
 * plain stores, no Atomics, where each push and pop of the shared deque costs two or three. Its
 * nodes are moved onto the worker's deque (`spillTo`) only when a peer is hungry (`CTL_HUNGRY`,
 * layout.ts), so a layered graph whose workers all have work touches the deques far less.
 * Its memory is kept for the thread's next run (fresh memory faults its pages in on every run).
 */
import { EMPTY, type WorkDeque } from './deque.ts';

let kept = new Int32Array(0);

export class PrivateStack {
  private readonly nodes: Int32Array;
  size = 0;

  /** A stack for `capacity` nodes: each node is readied once a run, so a graph's node count. */
  constructor(capacity: number) {
    if (kept.length < capacity) kept = new Int32Array(capacity);
    this.nodes = kept;
  }

  push(node: number): void {
    this.nodes[this.size++] = node;
  }

  /** The newest node, or EMPTY. */
  pop(): number {
    return this.size > 0 ? this.nodes[--this.size]! : EMPTY;
  }

  /** Moves every node onto `deque` (oldest first: thieves take the oldest); returns how many. */
  spillTo(deque: WorkDeque): number {
    const count = this.size;
    if (count > 0) deque.pushRange(this.nodes, 0, count);
    this.size = 0;
    return count;
  }
}
