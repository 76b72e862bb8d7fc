// engine/runtime: the executor and its backends.
export * from './backend.ts';
export * from './executor/index.ts';
export * from './sim/index.ts';
