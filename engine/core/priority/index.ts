// PRIO (docs/design.md §3.2): the queue, its policy adapter, aging, bands, retries and lifecycle.
export { agingBoost, effectivePriority, type AgingKnobs } from './aging.ts';
export { assertPriority, isValidPriority } from './bands.ts';
export { DEFAULT_PRIORITY_QUEUE_CONFIG, type PriorityQueueConfig } from './config.ts';
export type { TaskId } from './queued-task.ts';
export {
  DEFAULT_PRIORITY_POLICY_CONFIG,
  PriorityPolicy,
  type PriorityPolicyConfig,
} from './priority-policy.ts';
export { PriorityTaskQueue, type BulkItem, type QueuedTask } from './priority-task-queue.ts';
export { QueueFullError } from './queue-full-error.ts';
export { backoffNanos, DEFAULT_RETRY_POLICY, retryPolicy, type RetryPolicy } from './retry.ts';
export {
  assertTransition,
  canTransition,
  isTerminal,
  PriorityTask,
  TASK_TRANSITIONS,
  type TaskState,
} from './task-lifecycle.ts';
