export {
  DEFAULT_SEED,
  Session,
  type SessionOptions,
  type WorkloadContext,
  type WorkloadHandler,
} from './session.ts';
export { parseCommand, errorInfo, commandId } from './commands.ts';
export { LatencyStats } from './stats.ts';
export { FrameBuilder, type AlarmThresholds, type FrameBuilderOptions } from './frame-builder.ts';
