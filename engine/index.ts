// The engine's public surface. Each area adds its exports here.
export * from './core/ready-queue.ts';
export * from '../shared/errors.ts';
export * from './core/priority/index.ts';
export * from './core/mlfq/index.ts';
export * from './core/baseline/index.ts';
export * from './core/policies.ts';
export * from './runtime/index.ts';
export * from './host/index.ts';
export {
  CostHistory,
  withCosts,
  compileDocument,
  compileGraph,
  generateGraph,
  indexExplicitGraph,
  GraphRun,
  graphMetrics,
  NODE_STATES,
  type CompiledGraph,
  type GraphMetrics,
  type GraphReport,
  type IndexedGraph,
  type NodeStateName,
  type RootCause,
} from './core/graph/index.ts';
export {
  parseGraphDocument,
  graphDocumentSchema,
  GRAPH_POLICIES,
  GRAPH_ERROR_MODES,
  GRAPH_EXECUTORS,
  GRAPH_GENERATORS,
  type GraphDocument,
  type GraphPolicy,
  type GraphErrorMode,
  type GraphExecutorKind,
} from '../shared/graph.ts';
export {
  runGraphCentral,
  runGraphDocument,
  type CentralReport,
  type CentralRunOptions,
  type GraphRunResult,
  type GraphExecutors,
} from './runtime/graph/index.ts';
export {
  StealingExecutor,
  STEALING_KERNELS,
  type StealingReport,
  type StealingRunOptions,
} from './runtime/stealing/index.ts';
export {
  ThreadsBackend,
  TaskPool,
  type ThreadsBackendOptions,
  type TaskPoolOptions,
  type TaskSpec,
  type TaskContext,
  type UserFunction,
} from './runtime/threads/index.ts';
