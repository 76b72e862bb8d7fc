/**
 * Warms a worker's scheduling loop before the executor's first run (docs/design.md §3.4). The JIT
 * compiles `runWorkerLoop` on a background thread; on the project's loaded 2-core machine that
 * took several runs, and until then a 10k-node run took 1.6–3 ms instead of 0.25 (the loop's
 * unoptimised code: 160–300 ns a node). Each worker therefore runs the loop at start, alone, on a
 * small private graph that takes every path a run takes: roots claimed in chunks, trivial roots
 * run in place, successors run in place and pushed, shared counters, nodes stolen from another
 * deque. It costs each worker a few ms of its start, once, off every run's path.
 */
import { compileGraph } from '../../core/graph/compile.ts';
import { WorkDeque, ringCapacity } from './deque.ts';
import { stealingKernel } from './kernels.ts';
import { CTL_ROOTS, allocateRun, resetRun, viewRun } from './layout.ts';
import { runSolo } from './solo-loop.ts';
import { runWorkerLoop } from './worker-loop.ts';

/** Nodes of the fan-out chain (each node i → i+1 and i → i+2) and trivial roots beside it. */
const CHAIN = 1000;
const TRIVIAL = 1000;
/** Roots left on the other worker's deque for this one to steal. */
const STOLEN = 50;
const RUNS = 40;

export function warmLoop(): void {
  const graph = warmGraph();
  const n = graph.nodeCount;
  const views = viewRun(allocateRun(graph, 2));
  const capacity = ringCapacity(n);
  // Worker 1 of this private run never runs: its deque only holds nodes for worker 0 to steal.
  const victim = new WorkDeque(views.dequeMeta, views.dequeRing, 1, capacity, capacity);
  const kernels = [stealingKernel('add')!];
  for (let run = 0; run < RUNS; run++) {
    resetRun(views, n, { verify: false, timed: false });
    views.ctl[CTL_ROOTS] = STOLEN;
    victim.pushRange(views.roots, 0, STOLEN);
    runWorkerLoop(views, {
      workerId: 0,
      workers: 2,
      failFast: true,
      verify: false,
      kernels,
      seed: run + 1,
      sampleEvery: 40,
      origin: process.hrtime.bigint(),
    });
  }
}

/**
 * Warms the solo path (solo-loop.ts) on the main thread, as `warmLoop` does the workers' loop: at
 * 10k nodes its first runs took 0.4 ms, then 0.12. Runs with and without verification and spans,
 * and with one kernel and a table of two, as runs take them.
 */
export function warmSolo(): void {
  const graph = warmGraph();
  const views = viewRun(allocateRun(graph, 1));
  for (let run = 0; run < RUNS; run++) {
    const kernels = run % 4 === 3 ? ['noop', 'add'] : ['add'];
    runSolo(graph, views, kernels, run % 8 === 7, run % 2 === 0 ? 40 : 0);
  }
}

/** The fan-out chain (each node i → i+1 and i → i+2), with trivial roots beside it. */
function warmGraph() {
  const n = CHAIN + TRIVIAL;
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i + 1 < CHAIN; i++) {
    (from.push(i), to.push(i + 1));
    if (i + 2 < CHAIN) (from.push(i), to.push(i + 2));
  }
  return compileGraph({
    nodeCount: n,
    from: Int32Array.from(from),
    to: Int32Array.from(to),
    costNanos: new Float64Array(n),
    retries: new Uint8Array(n),
    failProbability: null,
    kernels: ['add'],
    kernelOf: new Uint16Array(n),
    ids: null,
  });
}
