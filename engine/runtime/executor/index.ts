export {
  Executor,
  type ExecutorOptions,
  type JobEnd,
  type SplitEnd,
  type SplitOffWorker,
  type TaskEnd,
  type TenantRow,
  type WaitVisitor,
} from './executor.ts';
export { DEFAULT_STARVATION_MS } from './executor-queries.ts';
export type { JobSpec, SplitSpec, TaskSpec } from './job-spec.ts';
export { SPLIT_STATE_NAMES, type JobState } from './lifecycle.ts';
export { EventRing } from './rings.ts';
export { toNanos, toSettings, mergeConfig, zodToError, type EngineSettings } from './settings.ts';
