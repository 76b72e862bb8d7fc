/**
 * Split id → the queue's node for that split, for duplicate checks and O(1) `remove`.
 *
 * A node is kept when its split leaves the queue and reused when the split comes back, rather
 * than deleted and re-inserted: V8's `Map` keeps deleted entries in their hash chain until the
 * next rehash, so one split cycling take → offer thousands of times between rehashes makes every
 * lookup walk thousands of dead entries (measured: ~100 µs per cycle beside 10k queued splits).
 * Idle nodes are swept in bulk once they outnumber the queued ones, so memory stays bounded.
 */
import { SchedLabError } from '../../../shared/errors.ts';

export interface IndexedSplitNode {
  queued: boolean;
  /** The split while queued; null once it leaves (`dequeued`). */
  split: unknown;
}

/** Below this many kept nodes, idle ones are never swept. */
const SWEEP_FLOOR = 1024;

export class SplitIndex<N extends IndexedSplitNode> {
  private readonly nodes = new Map<number, N>();
  private queuedCount = 0;

  /** Queued splits. */
  get size(): number {
    return this.queuedCount;
  }

  /** Nodes kept, queued or idle (bounded by max(1024, 2 × queued) + 1). */
  get kept(): number {
    return this.nodes.size;
  }

  /** The idle node kept for `id`, if any; throws DUPLICATE_ID when that split is queued. */
  idleNode(id: number): N | undefined {
    const node = this.nodes.get(id);
    if (node !== undefined && node.queued) {
      throw new SchedLabError('DUPLICATE_ID', `split ${id} is already queued`, 'split.id');
    }
    return node;
  }

  /** Marks a node queued; `fresh` nodes (not from `idleNode`) are stored under `id`. */
  enqueued(id: number, node: N, fresh: boolean): void {
    if (fresh) {
      this.sweep();
      this.nodes.set(id, node);
    }
    node.queued = true;
    this.queuedCount++;
  }

  dequeued(node: N): void {
    node.queued = false;
    // Kept for the split's return, but not the split: an ended split's record (its input, its
    // run's promise) must not live on in an idle node.
    (node as IndexedSplitNode).split = null;
    this.queuedCount--;
  }

  /** The node of a queued split, or undefined. */
  queuedNode(id: number): N | undefined {
    const node = this.nodes.get(id);
    return node !== undefined && node.queued ? node : undefined;
  }

  /** Forgets every node; the caller has taken all splits out. */
  clear(): void {
    for (const node of this.nodes.values()) node.queued = false;
    this.nodes.clear();
    this.queuedCount = 0;
  }

  private sweep(): void {
    const kept = this.nodes.size;
    if (kept < SWEEP_FLOOR || kept < 2 * this.queuedCount) return;
    for (const [id, node] of this.nodes) {
      if (!node.queued) this.nodes.delete(id);
    }
  }
}
