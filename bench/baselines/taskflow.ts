/**
 * The Taskflow baseline of the `dag-small` suite (bench/README.md): compiles
 * `taskflow-dag.cpp` against the Taskflow checkout named by `TASKFLOW_INCLUDE` (nothing is
 * looked up outside the repository otherwise) and runs it for one graph at a time. When it cannot
 * be built, `prepareTaskflow` says why, and the suite prints that and skips the baseline.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledGraph } from '../../engine/core/graph/compile.ts';

const SOURCE = fileURLToPath(new URL('./taskflow-dag.cpp', import.meta.url));

export type TaskflowBaseline = { binary: string } | { skipped: string };

export interface TaskflowRun {
  readonly nodes: number;
  readonly edges: number;
  readonly edgeSum: number;
  readonly medianMs: number;
  readonly resultsOk: boolean;
}

/** Builds the driver once per source, compiler and include path (cached in the temp folder). */
export function prepareTaskflow(): TaskflowBaseline {
  const include = process.env['TASKFLOW_INCLUDE'];
  if (include === undefined || include === '')
    return { skipped: 'TASKFLOW_INCLUDE is not set (the root of a Taskflow checkout)' };
  if (!existsSync(join(include, 'taskflow', 'taskflow.hpp')))
    return { skipped: `TASKFLOW_INCLUDE=${include} holds no taskflow/taskflow.hpp` };
  const cxx = process.env['CXX'] || 'g++';
  const key = createHash('sha256')
    .update(readFileSync(SOURCE))
    .update(`\0${cxx}\0${include}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(tmpdir(), `schedlab-taskflow-${key}`);
  const binary = join(dir, 'taskflow-dag');
  if (existsSync(binary)) return { binary };
  mkdirSync(dir, { recursive: true });
  const built = spawnSync(
    cxx,
    ['-O2', '-std=c++20', '-pthread', `-I${include}`, '-o', binary, SOURCE],
    { encoding: 'utf8', timeout: 300_000 },
  );
  if (built.error !== undefined) return { skipped: `${cxx} could not run: ${built.error.message}` };
  if (built.status !== 0)
    return { skipped: `${cxx} failed (${built.status}): ${built.stderr.slice(-400)}` };
  return { binary };
}

/** The driver's arguments for a graph of the suite (`bench/dag-small.ts` `doc`). */
export type TaskflowShape =
  | { generator: 'chain'; length: number }
  | { generator: 'independent'; count: number }
  | { generator: 'layered-random'; levels: number; width: number; seed: number };

function shapeArgs(s: TaskflowShape): string[] {
  switch (s.generator) {
    case 'chain':
      return ['chain', String(s.length)];
    case 'independent':
      return ['independent', String(s.count)];
    case 'layered-random':
      return ['layered-random', String(s.levels), String(s.width), String(s.seed)];
  }
}

/**
 * Runs the driver on `threads` threads (`warmups` untimed runs, then the median of `runs`) and
 * checks it built
 * the same graph as `graph`: node and edge counts and an order-independent edge checksum.
 */
export function runTaskflow(
  binary: string,
  threads: number,
  warmups: number,
  runs: number,
  shape: TaskflowShape,
  graph: CompiledGraph,
): TaskflowRun {
  const ran = spawnSync(
    binary,
    [String(threads), String(warmups), String(runs), ...shapeArgs(shape)],
    {
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (ran.status !== 0)
    throw new Error(`taskflow-dag failed (${ran.status ?? ran.signal}): ${ran.stderr}`);
  const out = JSON.parse(ran.stdout) as TaskflowRun;
  const sum = edgeSum(graph);
  if (out.nodes !== graph.nodeCount || out.edges !== graph.edgeCount || out.edgeSum !== sum)
    throw new Error(
      `taskflow-dag built another graph: ${out.nodes} nodes, ${out.edges} edges, sum ${out.edgeSum}` +
        ` vs ${graph.nodeCount}, ${graph.edgeCount}, ${sum}`,
    );
  if (!out.resultsOk) throw new Error('taskflow-dag: wrong kernel results');
  return out;
}

/** The driver's checksum: Σ (from × 0x9e3779b1) xor to over the edges, mod 2^32. */
function edgeSum(g: CompiledGraph): number {
  let sum = 0;
  for (let u = 0; u < g.nodeCount; u++) {
    const mixed = Math.imul(u, 0x9e3779b1);
    for (let k = g.successorStart[u]!; k < g.successorStart[u + 1]!; k++)
      sum = (sum + ((mixed ^ g.successors[k]!) >>> 0)) >>> 0;
  }
  return sum;
}
