// The threads backend: the public surface of engine/runtime/threads.
export {
  ThreadsBackend,
  DEFAULT_RESOURCE_LIMITS,
  MAX_WORKERS,
  type ThreadsBackendOptions,
} from './threads-backend.ts';
export type { TaskContext, UserFunction } from './user-module.ts';
