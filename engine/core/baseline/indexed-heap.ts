/**
 * A binary min-heap whose nodes remember their own position, so a queued node can be removed or
 * re-sifted after its key changed in O(log n) without tombstones (a ready queue's `remove` and a
 * fair queue's vruntime updates need exactly that).
 *
 * The heap owns `heapIndex` while a node is inside it and sets it to -1 when the node leaves.
 */
export interface HeapNode {
  heapIndex: number;
}

export class IndexedHeap<T extends HeapNode> {
  private readonly nodes: T[] = [];
  private readonly less: (a: T, b: T) => boolean;

  constructor(less: (a: T, b: T) => boolean) {
    this.less = less;
  }

  get size(): number {
    return this.nodes.length;
  }

  peek(): T | undefined {
    return this.nodes[0];
  }

  push(node: T): void {
    node.heapIndex = this.nodes.length;
    this.nodes.push(node);
    this.siftUp(node.heapIndex);
  }

  pop(): T | undefined {
    const top = this.nodes[0];
    if (top !== undefined) this.removeAt(0);
    return top;
  }

  /** False when the node is not in this heap. */
  remove(node: T): boolean {
    const i = node.heapIndex;
    if (i < 0 || this.nodes[i] !== node) return false;
    this.removeAt(i);
    return true;
  }

  /** Restores order after the node's key changed in either direction. */
  update(node: T): void {
    const i = node.heapIndex;
    if (i < 0 || this.nodes[i] !== node) return;
    if (this.siftUp(i) === i) this.siftDown(i);
  }

  /** Empties the heap; returns its former nodes in no particular order. */
  clear(): T[] {
    const all = this.nodes.splice(0, this.nodes.length);
    for (const node of all) node.heapIndex = -1;
    return all;
  }

  private removeAt(i: number): void {
    const nodes = this.nodes;
    const removed = nodes[i]!;
    const last = nodes.pop()!;
    removed.heapIndex = -1;
    if (i === nodes.length) return;
    nodes[i] = last;
    last.heapIndex = i;
    if (this.siftUp(i) === i) this.siftDown(i);
  }

  /** Returns the node's final index. */
  private siftUp(start: number): number {
    const nodes = this.nodes;
    const node = nodes[start]!;
    let i = start;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = nodes[parentIndex]!;
      if (!this.less(node, parent)) break;
      nodes[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    nodes[i] = node;
    node.heapIndex = i;
    return i;
  }

  private siftDown(start: number): void {
    const nodes = this.nodes;
    const n = nodes.length;
    const node = nodes[start]!;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.less(nodes[right]!, nodes[left]!)) child = right;
      const childNode = nodes[child]!;
      if (!this.less(childNode, node)) break;
      nodes[i] = childNode;
      childNode.heapIndex = i;
      i = child;
    }
    nodes[i] = node;
    node.heapIndex = i;
  }
}
