export { DEFAULT_SEED, MAX_FRAME_HZ, Session, type SessionOptions } from './session.ts';
export type { WorkloadContext, WorkloadHandler } from './workload-handler.ts';
export { parseCommand, errorInfo, commandId } from './parse-command.ts';
export { LatencyStats } from './stats.ts';
export { FrameBuilder, type AlarmThresholds, type FrameBuilderOptions } from './frame-builder.ts';
