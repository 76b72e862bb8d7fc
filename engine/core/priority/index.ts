export * from './aging.ts';
export * from './bands.ts';
export * from './config.ts';
export { type TaskId } from './entry-heap.ts';
export * from './priority-task-queue.ts';
export * from './queue-full-error.ts';
