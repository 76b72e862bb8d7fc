// Work-stealing graph executor over shared memory (threads).
export {
  StealingExecutor,
  type StealingReport,
  type StealingRunOptions,
  type StealingStartOptions,
} from './stealing-executor.ts';
export { SOLO_NODES, MAX_SOLO_NODES } from './solo-loop.ts';
export { STEALING_KERNELS, DEFAULT_STEALING_KERNEL, addResult } from './kernels.ts';
export type { Verification } from './verify.ts';
export type { LoopStats } from './worker-loop.ts';
