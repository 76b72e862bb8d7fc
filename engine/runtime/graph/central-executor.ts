/**
 * Central graph executor (docs/design.md §3.4, §4): drives a `GraphRun` over any `Backend` — the same
 * code on the `sim` backend's virtual clock and on real `threads`. It is a thin wrapper: the run
 * builds one `Executor` over the backend and runs the graph as one job of it (`ExecutorGraph`), so
 * a headless graph run and a live one share the one dispatch loop. Every ready node becomes one
 * split, dispatched with its kernel and `totalNanos` = its cost; the executor re-dispatches it if
 * it yields and parks it if it blocks. Each quantum is a span of the executor's ring; the report
 * carries those of this run's splits, named by node.
 *
 * Fail-fast: a failure past its retries fails the job, so the nodes on workers end `cancelled`
 * (or `succeeded` if they finished first). The returned promise settles when every node is
 * terminal.
 *
 * Lookahead is the executor's `pipeline` option: on a backend that can queue a dispatch behind a
 * running quantum (threads), a busy worker also holds the next split, so it starts that node the
 * moment its quantum ends instead of idling for a round trip through this thread.
 */
import type { GraphErrorMode, GraphPolicy } from '../../../shared/graph.ts';
import { outcomeAt } from '../../../shared/lib/outcomes.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import type { CostHistory } from '../../core/graph/cost-history.ts';
import type { GraphReport } from '../../core/graph/graph-run.ts';
import { graphMetrics } from '../../core/graph/metrics.ts';
import { HARD_KILL_FLOOR_NANOS, type Backend } from '../backend.ts';
import { Executor } from '../executor/index.ts';
import { ExecutorGraph } from './executor-graph.ts';
import { kernelWorks } from './kernel-works.ts';
import type { GraphSpan } from './span-ring.ts';

export { DEFAULT_CENTRAL_KERNEL, kernelWorks } from './kernel-works.ts';

/** The longest quantum the engine config allows (ms): a node runs to completion in one. */
const WHOLE_NODE_QUANTUM_MS = 600_000;

export interface CentralRunOptions {
  readonly policy?: GraphPolicy;
  readonly errorMode?: GraphErrorMode;
  /** Quantum per dispatch; by default a node runs to completion in one dispatch. */
  readonly quantumNanos?: number;
  /** Spans kept (most recent); default 65 536. */
  readonly maxSpans?: number;
  /**
   * Queue the next ready node behind each busy worker's quantum where the backend can (see the
   * header); default true. Off, every dispatch waits until its worker is idle.
   */
  readonly lookahead?: boolean;
  /** Learns each finished node's measured running time (all its quanta), keyed by node id. */
  readonly history?: CostHistory;
  /**
   * The hard limit (`hardKillAfterMs`, threads): a node's thread is killed once it runs this long
   * past its cancel (fail-fast stopping the graph) or past its quantum. 0 or absent: automatic,
   * except with the whole-node quantum (no `quantumNanos`), where it is 5 s, the automatic
   * limit's floor — 10 × a whole-node quantum is 100 minutes, and a cancelled module node that
   * never yields held its worker, and the run, that long. A node past the 10-minute quantum by
   * more than the limit is killed too.
   */
  readonly hardKillAfterMs?: number;
}

export interface CentralReport extends GraphReport {
  readonly dispatches: number;
  readonly spans: readonly GraphSpan[];
  readonly droppedSpans: number;
  readonly nodesPerSecond: number;
}

/** Starts `graph` on `backend` (which it takes over as listener); the handle can cancel the run. */
export function startGraphCentral(
  backend: Backend,
  graph: CompiledGraph,
  options: CentralRunOptions = {},
): CentralGraphRun {
  return new CentralGraphRun(backend, graph, options);
}

/** Runs `graph` on `backend` (which it takes over as listener) and resolves with the report. */
export function runGraphCentral(
  backend: Backend,
  graph: CompiledGraph,
  options: CentralRunOptions = {},
): Promise<CentralReport> {
  try {
    return new CentralGraphRun(backend, graph, options).done;
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

export class CentralGraphRun {
  readonly done: Promise<CentralReport>;
  private readonly executor: Executor;
  private readonly run: ExecutorGraph;
  /**
   * The node of each split still live, and of ended splits whose spans the span ring may still
   * hold. Ended ones are pruned to those in the ring once they pass twice its capacity: a map of
   * every attempt grew without bound (a million nodes retried 16 times each reach V8's map limit).
   */
  private readonly nodeOfSplit = new Map<number, number>();
  private readonly liveSplits = new Set<number>();
  private endedHeld = 0;
  private readonly startNanos: number;

  constructor(
    backend: Backend,
    private readonly graph: CompiledGraph,
    options: CentralRunOptions,
  ) {
    kernelWorks(graph); // a bad kernel name is refused before anything starts
    const quantumMs =
      options.quantumNanos === undefined
        ? WHOLE_NODE_QUANTUM_MS
        : Math.min(WHOLE_NODE_QUANTUM_MS, Math.max(0.01, options.quantumNanos / 1e6));
    this.executor = new Executor(
      backend,
      {
        workers: Math.min(256, Math.max(1, backend.workerCount)),
        quantumMs,
        policy: 'fifo',
        // Auto is 10 × the quantum: for a whole-node quantum, 100 minutes; 5 s then instead.
        hardKillAfterMs:
          options.hardKillAfterMs ||
          (options.quantumNanos === undefined ? HARD_KILL_FLOOR_NANOS / 1e6 : 0),
      },
      { spanCapacity: options.maxSpans ?? 65_536, pipeline: options.lookahead ?? true },
    );
    const history = options.history;
    const pipelined = (options.lookahead ?? true) && backend.enqueue !== undefined;
    this.startNanos = this.executor.now();
    this.run = new ExecutorGraph(this.executor, graph, {
      policy: options.policy ?? 'fifo',
      errorMode: options.errorMode ?? 'fail-fast',
      window: (pipelined ? 2 : 1) * this.executor.config.workers,
      onNode: (e) => {
        if (e.kind === 'started') {
          this.nodeOfSplit.set(e.splitId, e.node);
          this.liveSplits.add(e.splitId);
          return;
        }
        if (e.state === 'succeeded') history?.record(graph.nodeId(e.node), e.ranNanos);
        this.splitEnded(e.splitId);
      },
    });
    // The executor is not closed at the end: that would close the backend, which the caller
    // owns (a workload runs its graphs one after another on one). Its `fifo` queue arms no timer.
    // The report waits until no worker still runs a cancelled node: the next run on the backend
    // gets fresh split ids from its own executor, which must not meet a live one.
    this.done = this.run.done.then(async (r) => {
      await this.executor.drain();
      return this.report(r);
    });
  }

  /**
   * Cancels the run: nothing new starts, pending and ready nodes become `cancelled`, running ones
   * are cancelled through the backend. `done` still resolves with the report (no root cause).
   */
  cancel(): void {
    this.run.cancel();
  }

  private splitEnded(splitId: number): void {
    this.liveSplits.delete(splitId);
    if (++this.endedHeld <= 2 * this.executor.spans.capacity) return;
    const ring = this.executor.spans;
    const inRing = new Set<number>();
    for (let k = 0; k < ring.size; k++) inRing.add(ring.split[ring.slot(k)]!);
    for (const id of this.nodeOfSplit.keys()) {
      if (!inRing.has(id) && !this.liveSplits.has(id)) this.nodeOfSplit.delete(id);
    }
    this.endedHeld = this.nodeOfSplit.size - this.liveSplits.size;
  }

  /**
   * The figures with the last quanta of nodes cancelled while running (fail-fast stopping the
   * graph): each ran on to its quantum's end after the graph had ended, which the graph's own
   * count leaves out (a node that ran 30 of 61 ms cancelled read W 31 ms, utilization 50 % where
   * 98 % was true). Every quantum has ended by now (`drain`): W is the executor's busy time (each
   * quantum's run time, as the graph counts it), and T reaches the last quantum's end.
   */
  private withLastQuanta(r: Omit<Awaited<ExecutorGraph['done']>, 'jobId' | 'splits'>) {
    const busy = this.executor.counters.busyNanos;
    if (busy <= r.workNanos) return r;
    const ring = this.executor.spans;
    let last = this.startNanos + r.makespanNanos;
    for (let k = 0; k < ring.size; k++) last = Math.max(last, ring.end[ring.slot(k)]!);
    const metrics = graphMetrics(r.workers, last - this.startNanos, busy, r.criticalPathNanos);
    return { ...r, ...metrics };
  }

  /** Splits whose node this run still holds (live ones, and ended ones the span ring may hold). */
  get heldSplits(): number {
    return this.nodeOfSplit.size;
  }

  private report(r: Awaited<ExecutorGraph['done']>): CentralReport {
    const { jobId: _job, splits: _splits, ...ran } = r;
    const report = this.withLastQuanta(ran);
    const ring = this.executor.spans;
    const spans: GraphSpan[] = [];
    for (let k = 0; k < ring.size; k++) {
      const i = ring.slot(k);
      const v = this.nodeOfSplit.get(ring.split[i]!);
      if (v === undefined) continue;
      spans.push({
        node: this.graph.nodeId(v),
        nodeIndex: v,
        workerId: ring.worker[i]!,
        startNanos: ring.start[i]!,
        endNanos: ring.end[i]!,
        outcome: outcomeAt(ring.outcome[i]!),
      });
    }
    const dispatches = this.executor.counters.quanta;
    const dropped = ring.dropped;
    const seconds = report.makespanNanos / 1e9;
    return {
      ...report,
      dispatches,
      spans,
      droppedSpans: dropped,
      nodesPerSecond: seconds > 0 ? this.graph.nodeCount / seconds : 0,
    };
  }
}
