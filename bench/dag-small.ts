/**
 * Small graphs on the work-stealing executor (docs/design.md §3.4, §8), 2 workers, Taskflow's
 * shapes with a tiny kernel: how much of a run is the per-run warm-up. For 10k, 20k and 100k
 * nodes, the median wall time of a run (after WARMUPS untimed runs; compile excluded) as nodes/s
 * against 1M nodes/s, and the fixed cost of a run: a one-node graph's wall time (ms).
 * Then compile time per node at 10k and 100k nodes (µs/node; bar: 10 µs, a second per 100k).
 * Side by side, when `TASKFLOW_INCLUDE` names a Taskflow checkout: the same graphs on Taskflow
 * (C++, 2 threads, `baselines/taskflow-dag.cpp`) timed the same way, right after ours, as
 * `vs_taskflow_<shape>_<n>` (ours ÷ Taskflow in nodes/s: ≥ 1 meets issue 14's target), and
 * `vs_taskflow_unsampled_<shape>_<n>` for our runs without spans. These are the user's default path:
 * every graph here is instant nodes, so up to `SOLO_NODES` nodes it runs solo on the calling thread
 * (`solo-loop.ts`). For the workers' own speed beside it, `vs_taskflow_on_workers_<shape>_<n>`: the
 * same graphs on an executor with `soloNodes: 0`; and `solo_block_ms_<shape>_<n>`, how long a solo
 * run holds the event loop (its median wall time; the bar is 1 ms).
 */
import { parseGraphDocument } from '../shared/graph.ts';
import { compileDocument } from '../engine/core/graph/compile.ts';
import { StealingExecutor } from '../engine/runtime/stealing/stealing-executor.ts';
import { SOLO_NODES } from '../engine/runtime/stealing/solo-loop.ts';
import type { BenchReport } from './report.ts';
import { prepareTaskflow, runTaskflow, type TaskflowShape } from './baselines/taskflow.ts';

const WORKERS = 2;
const SIZES = [10_000, 20_000, 100_000];
/**
 * Timed runs per graph, on both sides (the median is reported): 21, not 7, since on this shared
 * 2-core machine at load 10–15 a 7-run median of the same graph swung 10× between suite runs.
 */
const RUNS = 21;
/**
 * Untimed runs of each graph before its timed ones, on both sides: the workers' loop is compiled
 * by the JIT over the first runs (a 10k-node graph's first runs took 20–90 ms, then 2–4 ms).
 */
const WARMUPS = 5;

function shape(name: string, n: number): TaskflowShape {
  const side = Math.round(Math.sqrt(n));
  switch (name) {
    case 'chain':
      return { generator: 'chain', length: n };
    case 'independent':
      return { generator: 'independent', count: n };
    default:
      return { generator: 'layered-random', levels: side, width: side, seed: 1 };
  }
}
const doc = (name: string, n: number): object => ({ ...shape(name, n), kernel: 'add' });
const SHAPES = ['chain', 'independent', 'layered_random'];
const compile = (d: object) => compileDocument(parseGraphDocument(d));

async function medianMs(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

export async function run(report: BenchReport): Promise<void> {
  const taskflow = prepareTaskflow();
  if ('skipped' in taskflow) console.log(`  Taskflow baseline skipped: ${taskflow.skipped}`);
  const stealing = await StealingExecutor.start(WORKERS);
  const onWorkers = await StealingExecutor.start(WORKERS, { soloNodes: 0 });
  try {
    const one = compile({ generator: 'independent', count: 1, kernel: 'add' });
    for (let i = 0; i < WARMUPS; i++) await stealing.run(one);
    const fixedMs = await medianMs(() => stealing.run(one));
    report.add('dag_small.run_fixed_cost_ms', fixedMs, 'ms', 1);
    for (let i = 0; i < WARMUPS; i++) await onWorkers.run(one);
    const fixedOnWorkers = await medianMs(() => onWorkers.run(one));
    report.add('dag_small.run_fixed_cost_on_workers_ms', fixedOnWorkers, 'ms', 1);
    if (!('skipped' in taskflow)) {
      // Lower is better here: ours ÷ Taskflow's one-node run.
      const tf = runTaskflow(
        taskflow.binary,
        WORKERS,
        WARMUPS,
        RUNS,
        { generator: 'independent', count: 1 },
        one,
      );
      report.add('dag_small.vs_taskflow_fixed_cost_ms', fixedMs, 'ms', tf.medianMs);
    }
    for (const n of SIZES) {
      for (const name of SHAPES) {
        const g = compile(doc(name, n));
        for (let i = 0; i < WARMUPS; i++) await stealing.run(g);
        const ms = await medianMs(() => stealing.run(g));
        const ours = g.nodeCount / (ms / 1000);
        report.add(`dag_small.nodes_per_s_${name}_${n}`, ours, 'nodes/s', 1e6);
        if (n <= SOLO_NODES) report.add(`dag_small.solo_block_ms_${name}_${n}`, ms, 'ms', 1);
        const workers = () => onWorkers.run(g);
        for (let i = 0; i < WARMUPS; i++) await workers();
        const oursOnWorkers = g.nodeCount / ((await medianMs(workers)) / 1000);
        if ('skipped' in taskflow) continue;
        // The same runs without spans (`sampleEvery: 0`): Taskflow records none either. By
        // default a run samples at most 256 spans (two clock reads each, `SAMPLED_SPANS`).
        const bare = () => stealing.run(g, { sampleEvery: 0 });
        for (let i = 0; i < WARMUPS; i++) await bare();
        const oursBare = g.nodeCount / ((await medianMs(bare)) / 1000);
        const tf = runTaskflow(taskflow.binary, WORKERS, WARMUPS, RUNS, shape(name, n), g);
        const theirs = g.nodeCount / (tf.medianMs / 1000);
        report.add(`dag_small.vs_taskflow_${name}_${n}`, ours, 'nodes/s', theirs);
        report.add(`dag_small.vs_taskflow_unsampled_${name}_${n}`, oursBare, 'nodes/s', theirs);
        report.add(
          `dag_small.vs_taskflow_on_workers_${name}_${n}`,
          oursOnWorkers,
          'nodes/s',
          theirs,
        );
      }
    }
  } finally {
    await stealing.close();
    await onWorkers.close();
  }
  for (const n of [10_000, 100_000]) {
    const parsed = parseGraphDocument(doc('layered_random', n));
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const g = compileDocument(parsed);
      times.push(((performance.now() - t) * 1000) / g.nodeCount);
    }
    report.add(`dag_small.compile_us_per_node_${n}`, Math.min(...times), 'µs/node', 10);
  }
}
