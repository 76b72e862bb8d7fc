/**
 * The baseline every queue is measured against: a plain binary min-heap of
 * `[priority, sequence, id]` entries — no index map, no tombstones, no aging.
 */
export type HeapEntry = [priority: number, sequence: number, id: number];

export class PlainBinaryHeap {
  private readonly heap: HeapEntry[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(entry: HeapEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  pop(): HeapEntry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && less(heap[right]!, heap[left]!) ? right : left;
      if (!less(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function less(a: HeapEntry, b: HeapEntry): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}
