export { FifoQueue } from './fifo-queue.ts';
export { FairQueue } from './fair-queue.ts';
export { IndexedHeap, type HeapNode } from './indexed-heap.ts';
