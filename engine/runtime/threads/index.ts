// The threads backend's public surface.
export { ThreadsBackend, MAX_WORKERS, type ThreadsBackendOptions } from './threads-backend.ts';
export type { TaskContext, UserFunction } from './user-module.ts';
