// The package entry (`exports["."]`, compiled to dist/lib by `npm run build`): the library first
// (`Scheduler`, engine/lib), then the engine's public surface. Each area adds its exports here.
export * from './lib/index.ts';
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
  startGraphCentral,
  CentralGraphRun,
  graphSplitEdges,
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
  type ThreadsBackendOptions,
  type UserFunction,
} from './runtime/threads/index.ts';
export { schemaError } from '../shared/schema-error.ts';
export {
  parseWorkload,
  workloadSchema,
  KERNEL_NAMES,
  TRINO_GENERATORS,
  type Workload,
  type WorkloadInput,
  type JobClass,
  type TrinoSimulation,
  type TrinoSpec,
} from '../shared/workload.ts';
export { PRESETS, PRESET_NAMES, loadPreset, isPreset } from './core/workload/presets/index.ts';
export { createRng, type Rng } from '../shared/lib/rng.ts';
export { generateSplit, simpleSplit, type SplitCost } from './core/workload/trino-generators.ts';
export { ClassDriver } from './runtime/workload/class-driver.ts';
export { TrinoController, type TrinoTask } from './runtime/workload/trino-controller.ts';
// `RunOptions` at the package's top level is the library's (`scheduler.run`'s options): an export
// here of the same name would silently take its place, so the workload runner's is renamed.
export {
  runWorkload,
  type RunOptions as WorkloadRunOptions,
  type RunResult,
  type RunProgress,
} from './host/report/run-workload.ts';
export type { RunReport, DagReport, LevelReport } from './host/report/report.ts';
export type { ClassReport } from './host/report/class-stats.ts';
export {
  compareConfigs,
  formatCompare,
  type CompareConfig,
  type CompareResult,
} from './host/report/compare.ts';
export { formatReport } from './host/report/format.ts';
export { toChromeTrace, type ChromeTrace, type TraceEvent } from './host/trace/chrome-trace.ts';
export { TraceWindow, type TraceSpan, type CounterSample } from './host/trace/trace-window.ts';
