/**
 * What `TaskPool` needs from a priority queue: the PRIO queue's (engine/core/priority) push/pop,
 * smaller number first, FIFO among equals.
 */
export interface TaskQueue<T> {
  readonly size: number;
  push(id: number, item: T, priority: number): void;
  pop(): { readonly item: T } | null;
}

interface Entry<T> {
  readonly priority: number;
  readonly sequence: number;
  readonly item: T;
}

/**
 * A plain binary min-heap on `(priority, sequence)`, used until the PRIO queue is available to
 * this layer; `TaskPool` takes any `TaskQueue`.
 */
export class FifoPriorityHeap<T> implements TaskQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private sequence = 0;

  get size(): number {
    return this.heap.length;
  }

  push(_id: number, item: T, priority: number): void {
    const heap = this.heap;
    const entry = { priority, sequence: this.sequence++, item };
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  pop(): { readonly item: T } | null {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined) return null;
    const n = heap.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.priority < b.priority || (a.priority === b.priority && a.sequence < b.sequence);
}
