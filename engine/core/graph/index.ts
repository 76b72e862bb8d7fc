// Task graphs (docs/design.md §3.4): documents → compiled graphs → run state and metrics.
export * from './compile.ts';
export * from './generators.ts';
export * from './graph-run.ts';
export * from './indexed-graph.ts';
export * from './kernels.ts';
export * from './metrics.ts';
export * from './node-state.ts';
export { mulberry32 } from '../../../shared/lib/rng.ts';
export * from './ready-order.ts';
export * from './random-dag.ts';
export * from './cost-history.ts';
export * from './steps.ts';
