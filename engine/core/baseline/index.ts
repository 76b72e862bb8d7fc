export { FifoQueue } from './fifo-queue.ts';
export { FairQueue } from './fair-queue.ts';
