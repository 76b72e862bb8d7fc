// The threads backend and the tiny-task pool: the public surface of engine/runtime/threads.
export {
  ThreadsBackend,
  DEFAULT_RESOURCE_LIMITS,
  MAX_WORKERS,
  type ThreadsBackendOptions,
} from './threads-backend.ts';
export { TaskPool, type TaskPoolOptions, type TaskSpec } from './task-pool.ts';
export type { TaskContext, UserFunction } from './user-module.ts';
export { BUILTIN_TASKS } from './task-functions.ts';
