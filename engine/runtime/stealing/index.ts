// Work-stealing graph executor over shared memory (threads).
export {
  StealingExecutor,
  type StealingReport,
  type StealingRunOptions,
} from './stealing-executor.ts';
export { STEALING_KERNELS, DEFAULT_STEALING_KERNEL, addResult } from './kernels.ts';
export type { Verification } from './verify.ts';
export type { LoopStats } from './worker-loop.ts';
