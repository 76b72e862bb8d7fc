export { MultilevelSplitQueue, type MlfqLevelStat } from './multilevel-split-queue.ts';
export {
  DEFAULT_LEVEL_CONTRIBUTION_CAP_NANOS,
  DEFAULT_LEVEL_THRESHOLDS_NANOS,
  DEFAULT_LEVEL_TIME_MULTIPLIER,
  LEVEL_COUNT,
  type MultilevelSplitQueueOptions,
} from './mlfq-config.ts';
