/**
 * Shared memory of one work-stealing run: the compiled graph (read-only), per-node dependency
 * counters, states and results, one deque per worker and a small control block. Every array is
 * its own `SharedArrayBuffer`; the main thread builds them, each worker maps the same memory.
 */
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { DEQUE_META_INTS, ringCapacity } from './deque.ts';

/** Control block slots, each on its own 64-byte line where threads contend. */
export const CTL_REMAINING = 0;
export const CTL_EPOCH = 16;
export const CTL_SLEEPERS = 32;
export const CTL_CLOCK = 48;
export const CTL_STOP = 64;
export const CTL_FAILED_NODE = 65;
export const CTL_DONE = 80;
/** The next unclaimed index into `roots` (workers claim roots in chunks, worker-loop.ts). */
export const CTL_ROOTS = 96;
/**
 * Workers looking for work (each adds 1 while it finds none, worker-loop.ts): while it is 0 a
 * worker keeps the nodes it readies on its private stack (private-stack.ts), else it shares them.
 */
export const CTL_HUNGRY = 112;
const CTL_INTS = 128;
/**
 * Spans a run samples by default: one node in ceil(nodes / SAMPLED_SPANS), so every node of a
 * graph up to this size and at most this many of a larger one. A span costs two clock reads in
 * the worker (100–200 ns each on the project's machines), so the budget bounds what spans add to
 * any run at about 0.1 ms; the earlier budget of 10k spans cost 2–4 ms a run at 10k nodes, several
 * times the run itself (bench `dag-small`).
 */
export const SAMPLED_SPANS = 256;
/**
 * Sampled spans kept per worker and run (a ring: the most recent win). As many as a run samples,
 * because on a busy machine one worker may run nearly every node; a smaller ring dropped spans
 * whenever the work was uneven. A caller's own `sampleEvery` may sample more and drop the rest.
 */
export const SPANS_PER_WORKER = SAMPLED_SPANS;

export interface RunBuffers {
  readonly ctl: SharedArrayBuffer;
  readonly successorStart: SharedArrayBuffer;
  readonly successors: SharedArrayBuffer;
  readonly inDegree: SharedArrayBuffer;
  readonly counters: SharedArrayBuffer;
  readonly costNanos: SharedArrayBuffer;
  readonly retries: SharedArrayBuffer;
  readonly kernelOf: SharedArrayBuffer;
  readonly states: SharedArrayBuffer;
  /** 1 when a predecessor failed or was skipped (continue mode). */
  readonly poisoned: SharedArrayBuffer;
  readonly results: SharedArrayBuffer;
  /** Measured run time (ns) of each node with a cost; 0 for the others (never timed). */
  readonly ranNanos: SharedArrayBuffer;
  readonly dequeMeta: SharedArrayBuffer;
  readonly dequeRing: SharedArrayBuffer;
  /** The graph's roots (nodes without predecessors), in index order: claimed via `CTL_ROOTS`. */
  readonly roots: SharedArrayBuffer;
  /** Verification only (empty otherwise): runs per node and global start/finish stamps. */
  readonly runCount: SharedArrayBuffer;
  readonly startStamp: SharedArrayBuffer;
  readonly finishStamp: SharedArrayBuffer;
  /**
   * Sampled spans, `SPANS_PER_WORKER` per worker: node, outcome, start and end (integer ns since
   * the run's origin, `threads/clock.ts`). A span starts when the worker takes the node (at the
   * end of its previous span when that node alone released it) and ends when its kernel returns,
   * before its successors are released; a node that never ran has none (worker-loop.ts).
   */
  readonly spanNode: SharedArrayBuffer;
  readonly spanOutcome: SharedArrayBuffer;
  readonly spanStart: SharedArrayBuffer;
  readonly spanEnd: SharedArrayBuffer;
}

export interface RunViews {
  readonly ctl: Int32Array;
  readonly successorStart: Int32Array;
  readonly successors: Int32Array;
  readonly inDegree: Int32Array;
  readonly counters: Int32Array;
  readonly costNanos: Float64Array;
  readonly retries: Uint8Array;
  readonly kernelOf: Uint16Array;
  readonly states: Uint8Array;
  readonly poisoned: Uint8Array;
  readonly results: Int32Array;
  readonly ranNanos: Float64Array;
  readonly dequeMeta: Int32Array;
  readonly dequeRing: Int32Array;
  readonly roots: Int32Array;
  readonly runCount: Int32Array;
  readonly startStamp: Int32Array;
  readonly finishStamp: Int32Array;
  readonly spanNode: Int32Array;
  readonly spanOutcome: Uint8Array;
  readonly spanStart: Float64Array;
  readonly spanEnd: Float64Array;
}

function shared<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(
  make: (b: SharedArrayBuffer) => T,
  bytes: number,
  source?: ArrayLike<number>,
): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(bytes);
  if (source !== undefined)
    (make(buffer) as unknown as { set(a: ArrayLike<number>): void }).set(source);
  return buffer;
}

/**
 * Allocates a run's memory. The verification arrays are always there (12 bytes a node), so one
 * allocation serves every later run of the same graph after `resetRun`.
 */
export function allocateRun(graph: CompiledGraph, workers: number): RunBuffers {
  const n = graph.nodeCount;
  const roots = rootsOf(graph);
  const i32 = (b: SharedArrayBuffer) => new Int32Array(b);
  const u8 = (b: SharedArrayBuffer) => new Uint8Array(b);
  return {
    ctl: shared(i32, 4 * CTL_INTS),
    successorStart: shared(i32, 4 * (n + 1), graph.successorStart),
    successors: shared(i32, 4 * graph.edgeCount, graph.successors),
    inDegree: shared(i32, 4 * n, graph.inDegree),
    counters: shared(i32, 4 * n),
    costNanos: shared((b) => new Float64Array(b), 8 * n, graph.costNanos),
    retries: shared(u8, n, graph.retries),
    kernelOf: shared((b) => new Uint16Array(b), 2 * n, graph.kernelOf),
    states: shared(u8, n),
    poisoned: shared(u8, n),
    results: shared(i32, 4 * n),
    ranNanos: shared((b) => new Float64Array(b), 8 * n),
    dequeMeta: shared(i32, 4 * DEQUE_META_INTS * workers),
    dequeRing: shared(i32, 4 * ringCapacity(n) * workers),
    roots: shared(i32, 4 * roots.length, roots),
    runCount: shared(i32, 4 * n),
    startStamp: shared(i32, 4 * n),
    finishStamp: shared(i32, 4 * n),
    spanNode: shared(i32, 4 * SPANS_PER_WORKER * workers),
    spanOutcome: shared(u8, SPANS_PER_WORKER * workers),
    spanStart: shared((b) => new Float64Array(b), 8 * SPANS_PER_WORKER * workers),
    spanEnd: shared((b) => new Float64Array(b), 8 * SPANS_PER_WORKER * workers),
  };
}

/** The nodes without predecessors, in index order. */
function rootsOf(graph: CompiledGraph): Int32Array {
  const roots = new Int32Array(graph.nodeCount);
  let count = 0;
  for (let v = 0; v < graph.nodeCount; v++) if (graph.inDegree[v] === 0) roots[count++] = v;
  return roots.slice(0, count);
}

/**
 * Resets the mutable part for a new run (no worker may be using it): counters back to the
 * in-degrees, states, poison, results and deques cleared, every root unclaimed. Stamps need no
 * reset: a node whose stamps are stale was not processed, which its run count of 0 reports. Run
 * counts are cleared only for a run that verifies (only it reads them), and measured times only
 * when some node has a cost (only those are written, and only then read).
 */
export function resetRun(
  v: RunViews,
  nodeCount: number,
  options: { readonly verify: boolean; readonly timed: boolean; readonly solo?: boolean },
): void {
  v.ctl.fill(0);
  v.ctl[CTL_REMAINING] = nodeCount;
  v.ctl[CTL_FAILED_NODE] = -1;
  if (options.verify) v.runCount.fill(0);
  // Cleared so that a node that did not run cannot show the last run's result.
  v.results.fill(0);
  // A solo run (solo-loop.ts) writes every state and reads no counter, poison or deque.
  if (options.solo === true) return;
  v.counters.set(v.inDegree);
  v.states.fill(0);
  v.poisoned.fill(0);
  if (options.timed) v.ranNanos.fill(0);
  v.dequeMeta.fill(0);
}

export function viewRun(b: RunBuffers): RunViews {
  const i32 = (s: SharedArrayBuffer) => new Int32Array(s);
  return {
    ctl: i32(b.ctl),
    successorStart: i32(b.successorStart),
    successors: i32(b.successors),
    inDegree: i32(b.inDegree),
    counters: i32(b.counters),
    costNanos: new Float64Array(b.costNanos),
    retries: new Uint8Array(b.retries),
    kernelOf: new Uint16Array(b.kernelOf),
    states: new Uint8Array(b.states),
    poisoned: new Uint8Array(b.poisoned),
    results: i32(b.results),
    ranNanos: new Float64Array(b.ranNanos),
    dequeMeta: i32(b.dequeMeta),
    dequeRing: i32(b.dequeRing),
    roots: i32(b.roots),
    runCount: i32(b.runCount),
    startStamp: i32(b.startStamp),
    finishStamp: i32(b.finishStamp),
    spanNode: i32(b.spanNode),
    spanOutcome: new Uint8Array(b.spanOutcome),
    spanStart: new Float64Array(b.spanStart),
    spanEnd: new Float64Array(b.spanEnd),
  };
}
