// The library's public surface: `import { Scheduler } from 'schedlab'` (engine/index.ts re-exports it).
export { Scheduler, type SchedulerStats, type TenantStats } from './scheduler.ts';
export type { ConsoleOptions, RunningConsole } from './console.ts';
export { Pool, type PoolOptions, type PoolRunOptions } from './pool.ts';
export { LIBRARY_DEFAULTS, type RunOptions, type SchedulerOptions } from './options.ts';
export { MAX_TRANSFER_LIST, type TransferItem } from '../runtime/threads/transfer.ts';
export type {
  KernelInput,
  KernelTask,
  ModuleTask,
  Task,
  TaskContext,
  TaskFunction,
} from './task.ts';
