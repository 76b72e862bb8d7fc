// The engine's public surface. Each area adds its exports here.
export * from './core/ready-queue.ts';
export * from '../shared/errors.ts';
export * from './core/priority/index.ts';
export * from './core/mlfq/index.ts';
export * from './core/baseline/index.ts';
export * from './core/policies.ts';
export * from './runtime/index.ts';
export * from './host/index.ts';
