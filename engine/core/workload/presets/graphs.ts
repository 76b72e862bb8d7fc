/**
 * Graph presets (docs/design.md §5): documents of the graph schema (shared/graph.ts), run by the graph
 * executors. Costs are ms of work per node.
 */
import type { WorkloadInput } from '../../../../shared/workload.ts';

/** A → {B, C…}, {B, C…} → D, C → E with B long: critical-path ordering beats FIFO. */
export const diamond: WorkloadInput = {
  name: 'diamond',
  description: 'A → {B, C}, {B, C} → D, C → E with B long: FIFO vs critical path.',
  seed: 1,
  config: { workers: 2 },
  // The graph schema's diamond: A → {C1, C2, B}, {C1, C2, B} → D, Ci → Ei. The short branches
  // come first in id order, so FIFO starts them before B and finishes late; critical path starts
  // B at once.
  graph: {
    generator: 'diamond',
    width: 2,
    longCost: 100,
    cost: 10,
    kernel: 'spin',
    policy: 'critical-path',
  },
};

export const randomLayeredDag: WorkloadInput = {
  name: 'random-layered-dag',
  description: 'A seeded layered random DAG (12 levels × 16 nodes, 1–4 edges into the next level).',
  seed: 1,
  config: { workers: 4 },
  graph: {
    generator: 'layered-random',
    levels: 12,
    width: 16,
    cost: 2,
    maxCost: 20,
    seed: 1,
    kernel: 'spin',
    policy: 'critical-path',
  },
};

/** Taskflow's benchmark shapes, one graph run each, submitted together. */
export const taskflowShapes: WorkloadInput = {
  name: 'taskflow-shapes',
  description:
    "Taskflow's shapes: linear chain, binary tree, embarrassingly parallel, wavefront, layered random.",
  seed: 1,
  config: { workers: 4 },
  graph: [
    { generator: 'chain', length: 200, cost: 1, kernel: 'spin' },
    { generator: 'binary-tree', depth: 8, cost: 1, kernel: 'spin' },
    { generator: 'independent', count: 400, cost: 1, kernel: 'spin' },
    { generator: 'wavefront', rows: 16, cols: 16, cost: 1, kernel: 'spin' },
    {
      generator: 'layered-random',
      levels: 10,
      width: 20,
      cost: 1,
      maxCost: 4,
      seed: 1,
      kernel: 'spin',
    },
  ],
};
