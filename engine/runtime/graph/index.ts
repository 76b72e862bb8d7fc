// Central graph executor: a GraphRun driven over any Backend (sim or threads).
export * from './central-executor.ts';
export * from './span-ring.ts';
export * from './run-graph.ts';
export * from './trace-edges.ts';
