// engine/host: a running session (executor + backend + telemetry + commands).
export * from './session/index.ts';
