/**
 * Graph generators (docs/design.md §5): Taskflow's benchmark shapes, seeded random DAGs and the
 * `diamond` that separates FIFO from critical-path scheduling. Each builds an `IndexedGraph`
 * directly in typed arrays; same spec and seed → the same graph, whether built in one piece
 * (`generateGraph`) or in bounded steps (`generateGraphSteps`, steps.ts).
 */
import type { GeneratorSpec, GraphKernel } from '../../../shared/graph.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { MAX_GRAPH_EDGES } from '../../../shared/limits.ts';
import { msToNanos, type IndexedGraph } from './indexed-graph.ts';
import { mulberry32 } from '../../../shared/lib/rng.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from './steps.ts';

/**
 * Graphs beyond this many edges are refused rather than exhausting memory (the schema refuses
 * them first; this guards a spec that skipped it).
 */
export const MAX_GENERATED_EDGES = MAX_GRAPH_EDGES;

/** Growable edge list over typed arrays (amortised doubling, capped by MAX_GENERATED_EDGES). */
class EdgeBuilder {
  from: Int32Array;
  to: Int32Array;
  length = 0;
  constructor(capacity: number) {
    const size = Math.min(Math.max(1, capacity), MAX_GENERATED_EDGES);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
  }
  add(a: number, b: number): void {
    if (this.length === this.from.length) {
      // Checked here, not only when it grows: a first guess above the limit never grew, and a
      // draw past the expected count went over it.
      if (this.length >= MAX_GENERATED_EDGES) {
        throw new SchedLabError(
          'INVALID_GRAPH',
          `p: the graph would exceed ${MAX_GENERATED_EDGES} edges`,
          'p',
        );
      }
      const grow = (old: Int32Array) => {
        const next = new Int32Array(Math.min(old.length * 2, MAX_GENERATED_EDGES));
        next.set(old);
        return next;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    this.from[this.length] = a;
    this.to[this.length] = b;
    this.length++;
  }
  /**
   * Views, not copies: the lists live only until the graph is compiled, and copying them would
   * touch every page of two more arrays in one step (≈ 30 ms per 8 MB on a loaded machine).
   */
  finish(): { from: Int32Array; to: Int32Array } {
    return { from: this.from.subarray(0, this.length), to: this.to.subarray(0, this.length) };
  }
}

interface Shape {
  n: number;
  edges: { from: Int32Array; to: Int32Array };
  ids?: string[];
  /** Per-node cost (ms) overriding the uniform one. */
  costMs?: (i: number) => number | undefined;
}

export function generateGraph(spec: GeneratorSpec): IndexedGraph {
  return runSteps(generateGraphSteps(spec, new WorkBudget(UNBOUNDED)));
}

/** `generateGraph` pausing after each `budget` of work (a unit: one node or one edge). */
export function* generateGraphSteps(spec: GeneratorSpec, budget: WorkBudget): Steps<IndexedGraph> {
  const shape = yield* buildShape(spec, budget);
  const { n } = shape;
  const costNanos = new Float64Array(n);
  // Filled in the same bounded loop as the costs (a fresh array is zeros already).
  const retries = new Uint8Array(n);
  const failProbability = spec.failProbability > 0 ? new Float64Array(n) : null;
  const maxCost = 'maxCost' in spec ? spec.maxCost : undefined;
  const random = mulberry32(('seed' in spec ? spec.seed : 1) ^ 0x9e3779b9);
  for (let i = 0; i < n; i++) {
    let ms = shape.costMs?.(i) ?? spec.cost;
    if (maxCost !== undefined && maxCost > spec.cost)
      ms = spec.cost + random() * (maxCost - spec.cost);
    costNanos[i] = msToNanos(ms);
    if (spec.retries !== 0) retries[i] = spec.retries;
    if (failProbability !== null) failProbability[i] = spec.failProbability;
    if (budget.spend()) yield;
  }
  const kernels: (GraphKernel | null)[] = [spec.kernel ?? null];
  return {
    nodeCount: n,
    from: shape.edges.from,
    to: shape.edges.to,
    costNanos,
    retries,
    failProbability,
    kernels,
    kernelOf: new Uint16Array(n),
    ids: shape.ids ?? null,
  };
}

function* buildShape(spec: GeneratorSpec, budget: WorkBudget): Steps<Shape> {
  switch (spec.generator) {
    case 'chain': {
      const b = new EdgeBuilder(spec.length - 1);
      for (let i = 0; i + 1 < spec.length; i++) {
        b.add(i, i + 1);
        if (budget.spend()) yield;
      }
      return { n: spec.length, edges: b.finish() };
    }
    case 'binary-tree': {
      // Root to leaves, as in Taskflow's binary-tree benchmark: node i feeds 2i+1 and 2i+2.
      const n = 2 ** spec.depth - 1;
      const b = new EdgeBuilder(n - 1);
      for (let i = 0; 2 * i + 2 < n; i++) {
        b.add(i, 2 * i + 1);
        b.add(i, 2 * i + 2);
        if (budget.spend(2)) yield;
      }
      return { n, edges: b.finish() };
    }
    case 'independent':
      return { n: spec.count, edges: new EdgeBuilder(0).finish() };
    case 'wavefront': {
      const { rows, cols } = spec;
      const b = new EdgeBuilder(2 * rows * cols);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const v = r * cols + c;
          if (r + 1 < rows) b.add(v, v + cols);
          if (c + 1 < cols) b.add(v, v + 1);
          if (budget.spend(2)) yield;
        }
      }
      return { n: rows * cols, edges: b.finish() };
    }
    case 'layered-random':
      return yield* layeredRandom(spec.levels, spec.width, spec.seed, budget);
    case 'erdos-renyi':
      return yield* erdosRenyi(spec.nodes, spec.p, spec.seed, budget);
    case 'diamond':
      // At most 1000 wide (shared/graph.ts): small enough for one step.
      return diamond(spec.width, spec.longCost);
  }
}

/** Every node of level l has 1–4 distinct successors in level l+1 (fewer when the level is narrower). */
function* layeredRandom(
  levels: number,
  width: number,
  seed: number,
  budget: WorkBudget,
): Steps<Shape> {
  const random = mulberry32(seed);
  const n = levels * width;
  // The most it can need, so it never grows (a growth copies both lists in one step); pages
  // never written cost no memory.
  const b = new EdgeBuilder((levels - 1) * width * Math.min(4, width));
  const picked = new Int32Array(4);
  for (let l = 0; l + 1 < levels; l++) {
    for (let k = 0; k < width; k++) {
      const out = Math.min(width, 1 + Math.floor(random() * 4));
      let count = 0;
      while (count < out) {
        const target = Math.floor(random() * width);
        let seen = false; // a plain loop: no view allocated per draw
        for (let q = 0; q < count; q++) if (picked[q] === target) seen = true;
        if (seen) continue;
        picked[count++] = target;
        b.add(l * width + k, (l + 1) * width + target);
      }
      if (budget.spend(1 + out)) yield;
    }
  }
  return { n, edges: b.finish() };
}

/** Edge i→j for each i<j with probability p; geometric skips make it O(n + edges). */
function* erdosRenyi(n: number, p: number, seed: number, budget: WorkBudget): Steps<Shape> {
  const expected = (p * n * (n - 1)) / 2;
  if (expected > MAX_GENERATED_EDGES) {
    throw new SchedLabError(
      'INVALID_GRAPH',
      `p: about ${Math.round(expected)} edges expected, more than ${MAX_GENERATED_EDGES}; lower p or nodes`,
      'p',
    );
  }
  const random = mulberry32(seed);
  const b = new EdgeBuilder(Math.ceil(expected * 1.1) + 16);
  if (p > 0) {
    // log1p: for p under ~1e-16, `Math.log(1 - p)` is 0, every skip −Infinity, and bogus edges
    // (i, −Infinity) were added until the edge cap refused the graph.
    const logq = Math.log1p(-p);
    for (let i = 0; i < n; i++) {
      // Candidates are j = i+1..n-1; skip ahead by a geometric number of misses each time.
      let j = i;
      for (;;) {
        j += p >= 1 ? 1 : 1 + Math.floor(Math.log(1 - random()) / logq);
        if (j >= n) break;
        b.add(i, j);
        if (budget.spend()) yield;
      }
      if (budget.spend()) yield;
    }
  }
  return { n, edges: b.finish() };
}

/**
 * A → {C1..Cw, B}, {C1..Cw, B} → D, Ci → Ei; B is long. The short branches are listed first, so
 * FIFO starts them before B and D waits; critical-path starts B at once (docs/design.md §5).
 */
function diamond(width: number, longCostMs: number): Shape {
  const c = (i: number) => (width === 1 ? 'C' : `C${i + 1}`);
  const e = (i: number) => (width === 1 ? 'E' : `E${i + 1}`);
  const ids = ['A', ...Array.from({ length: width }, (_, i) => c(i)), 'B', 'D'];
  for (let i = 0; i < width; i++) ids.push(e(i));
  const B = width + 1;
  const D = width + 2;
  const b = new EdgeBuilder(3 * width + 2);
  for (let i = 0; i < width; i++) b.add(0, 1 + i);
  b.add(0, B);
  for (let i = 0; i < width; i++) {
    b.add(1 + i, D);
    b.add(1 + i, D + 1 + i);
  }
  b.add(B, D);
  return {
    n: ids.length,
    edges: b.finish(),
    ids,
    costMs: (i) => (i === B ? longCostMs : undefined),
  };
}
