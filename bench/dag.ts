/**
 * DAG executors side by side (docs/design.md §3.4, §8), 2 workers, Taskflow's shapes (linear chain,
 * binary tree, embarrassingly parallel, wavefront, layered random) with a tiny kernel:
 * - the work-stealing executor (shared memory, no message per node),
 * - the central executor over the threads backend (one dispatch message per node),
 * - Piscina running one task per node, wave by wave in topological levels.
 * Nodes/s are wall-clock over a whole run (setup included). Then utilization and efficiency on
 * coarse nodes (1–3 ms), compile time of a 100k-node graph, and FIFO vs critical path in the sim.
 */
import { Piscina } from 'piscina';
import { parseGraphDocument } from '../shared/graph.ts';
import { compileDocument, type CompiledGraph } from '../engine/core/graph/compile.ts';
import { runGraphCentral } from '../engine/runtime/graph/central-executor.ts';
import { SimBackend } from '../engine/runtime/sim/index.ts';
import { StealingExecutor } from '../engine/runtime/stealing/stealing-executor.ts';
import { ThreadsBackend } from '../engine/runtime/threads/index.ts';
import type { BenchReport } from './report.ts';

const WORKERS = 2;
/** Nodes per graph in the three-way comparison (the central executor pays a message per node). */
const SMALL = 20_000;
/** Nodes per graph for the stealing executor's own throughput. */
const BIG = 1_000_000;

function shape(name: string, n: number, extra: object): object {
  const side = Math.round(Math.sqrt(n));
  switch (name) {
    case 'chain':
      return { generator: 'chain', length: n, ...extra };
    case 'binary_tree':
      return { generator: 'binary-tree', depth: Math.round(Math.log2(n + 1)), ...extra };
    case 'independent':
      return { generator: 'independent', count: n, ...extra };
    case 'wavefront':
      return { generator: 'wavefront', rows: side, cols: side, ...extra };
    default:
      return { generator: 'layered-random', levels: side, width: side, seed: 1, ...extra };
  }
}
const SHAPES = ['chain', 'binary_tree', 'independent', 'wavefront', 'layered_random'];
const compile = (doc: object) => compileDocument(parseGraphDocument(doc));

async function wallNodesPerSecond(
  nodes: number,
  runs: number,
  fn: () => Promise<unknown>,
): Promise<number> {
  const rates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    rates.push(nodes / ((performance.now() - t) / 1000));
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]!;
}

/** Topological levels: level(v) = 1 + max level of its predecessors; Piscina runs one level at a time. */
function waves(g: CompiledGraph): Int32Array[] {
  const level = new Int32Array(g.nodeCount);
  let depth = 0;
  for (const v of g.topoOrder) {
    for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
      const s = g.successors[k]!;
      if (level[v]! + 1 > level[s]!) level[s] = level[v]! + 1;
    }
    depth = Math.max(depth, level[v]! + 1);
  }
  const counts = new Int32Array(depth);
  for (const l of level) counts[l]!++;
  const out = Array.from(counts, (c) => new Int32Array(c));
  counts.fill(0);
  for (let v = 0; v < g.nodeCount; v++) out[level[v]!]![counts[level[v]!]!++] = v;
  return out;
}

async function runPiscinaWaves(pool: Piscina, levels: Int32Array[]): Promise<void> {
  for (const wave of levels) {
    const runs = new Array<Promise<unknown>>(wave.length);
    for (let i = 0; i < wave.length; i++) runs[i] = pool.run(wave[i]);
    await Promise.all(runs);
  }
}

export async function run(report: BenchReport): Promise<void> {
  const stealing = await StealingExecutor.start(WORKERS);
  const threads = new ThreadsBackend({ workers: WORKERS });
  await threads.ready();
  const piscina = new Piscina({
    filename: new URL('./dag-piscina-worker.mjs', import.meta.url).href,
    minThreads: WORKERS,
    maxThreads: WORKERS,
  });
  try {
    for (const name of SHAPES) {
      const tiny = compile(shape(name, SMALL, { kernel: 'add' }));
      const central = compile(shape(name, SMALL, { kernel: 'spin', cost: 0 }));
      const levels = waves(tiny);
      await stealing.run(tiny); // warm-up
      const s = await wallNodesPerSecond(tiny.nodeCount, 5, () => stealing.run(tiny));
      const c = await wallNodesPerSecond(central.nodeCount, 1, () =>
        runGraphCentral(threads, central),
      );
      await runPiscinaWaves(piscina, levels.slice(0, 2)); // warm-up
      const p = await wallNodesPerSecond(tiny.nodeCount, 1, () => runPiscinaWaves(piscina, levels));
      report.add(`dag.stealing_vs_central_${name}`, s, 'nodes/s', c);
      report.add(`dag.stealing_vs_piscina_${name}`, s, 'nodes/s', p);
      const big = compile(shape(name, BIG, { kernel: 'add' }));
      const reports: { ok: boolean }[] = [];
      const b = await wallNodesPerSecond(big.nodeCount, 3, async () => {
        const r = await stealing.run(big);
        reports.push(r.verification);
      });
      if (reports.some((r) => !r.ok))
        throw new Error(`stealing run of ${name} produced wrong results`);
      report.add(`dag.stealing_nodes_per_s_${name}`, b, 'nodes/s', 1e6);
    }

    // Coarse nodes (1–3 ms of real spinning): utilization W/(p·T) and efficiency LB/T, W being
    // each node's measured running time. Compare the two executors on a quiet machine only: the
    // stealing run's `spin-us` spins to a wall-clock deadline (time its thread is descheduled
    // counts as work, so its nodes end on time however busy the cores are), while the threads
    // backend's `spin` does a fixed amount of computation, so on busy cores its nodes take longer
    // and a worker descheduled between two nodes (typically as it wakes the main thread) is idle.
    const coarseDoc = {
      generator: 'layered-random',
      levels: 12,
      width: 8,
      seed: 3,
      cost: 1,
      maxCost: 3,
    };
    const coarseStealing = await stealing.run(compile({ ...coarseDoc, kernel: 'spin-us' }));
    report.add('dag.stealing_utilization_coarse', coarseStealing.utilization, 'W/(p·T)', 0.9);
    report.add('dag.stealing_efficiency_coarse', coarseStealing.efficiency, 'LB/T', 1);
    const coarseCentral = await runGraphCentral(
      threads,
      compile({ ...coarseDoc, kernel: 'spin' }),
      { policy: 'critical-path' },
    );
    report.add('dag.central_utilization_coarse', coarseCentral.utilization, 'W/(p·T)', 0.9);
    report.add('dag.central_efficiency_coarse', coarseCentral.efficiency, 'LB/T', 1);
  } finally {
    await Promise.all([stealing.close(), threads.close(), piscina.destroy()]);
  }

  // Compilation: a 100k-node layered random graph, best of 3 (bar: well under a second).
  const doc = parseGraphDocument({ generator: 'layered-random', levels: 316, width: 317, seed: 1 });
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    compileDocument(doc);
    times.push(performance.now() - t);
  }
  report.add('dag.compile_100k_nodes_ms', Math.min(...times), 'ms', 1000);

  // Simulator, zero overhead: critical path vs FIFO makespan on the diamond (lower ratio = better).
  const diamond = compile({ generator: 'diamond', width: 2, longCost: 10, cost: 1 });
  const makespan = async (policy: 'fifo' | 'critical-path') => {
    const sim = new SimBackend({ workers: WORKERS });
    const done = runGraphCentral(sim, diamond, { policy });
    sim.runUntilIdle();
    return (await done).makespanNanos;
  };
  report.add(
    'dag.sim_critical_path_vs_fifo_diamond',
    await makespan('critical-path'),
    'ns',
    await makespan('fifo'),
  );
}
