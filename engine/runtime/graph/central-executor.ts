/**
 * Central graph executor (docs/design.md §3.4, §4): drives a `GraphRun` over any `Backend` — the same
 * code on the `sim` backend's virtual clock and on real `threads`. Every ready node becomes one
 * split: dispatched with its kernel and `totalNanos` = its cost, re-dispatched if it yields,
 * parked on a backend timer if it blocks. Each quantum is recorded as a span carrying the node.
 *
 * Fail-fast: when the run stops, the nodes on workers are cancelled through the backend (they end
 * `cancelled`, or `succeeded` if they finished first); nodes parked between quanta are cancelled
 * at once. The returned promise settles when every node is terminal.
 *
 * Lookahead: on a backend that can queue a dispatch behind a running quantum (`enqueue`, the
 * threads backend), every busy worker also holds the next ready node, taken in policy order, so it
 * starts that node the moment its quantum ends instead of idling for a round trip through this
 * thread (≈ 0.2 ms a node, 10 % of a 2 ms node, far more when this thread waits for a core). A
 * queued node is running from the graph's view (all its predecessors have finished); an idle
 * worker with nothing ready takes back a queued node that has not started.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { GraphErrorMode, GraphPolicy } from '../../../shared/graph.ts';
import { firstNodeOfKernel, type CompiledGraph } from '../../core/graph/compile.ts';
import type { CostHistory } from '../../core/graph/cost-history.ts';
import { DEFAULT_GRAPH_KERNEL, canonicalKernel } from '../../core/graph/kernels.ts';
import { GraphRun, type GraphReport } from '../../core/graph/graph-run.ts';
import type { Backend, KernelName, QuantumEnd, SplitWork } from '../backend.ts';
import { SpanRing } from '../../../shared/lib/span-ring.ts';
import { graphSpans, recordGraphSpan, type GraphSpan } from './span-ring.ts';
import { WorkerLookahead } from './worker-lookahead.ts';

const BACKEND_KERNELS: readonly string[] = ['hash', 'sort', 'compress', 'matmul', 'spin', 'sleep'];
/** The kernel a node without one runs (engine/core/graph/kernels.ts). */
export const DEFAULT_CENTRAL_KERNEL = DEFAULT_GRAPH_KERNEL as KernelName;

export interface CentralRunOptions {
  readonly policy?: GraphPolicy;
  readonly errorMode?: GraphErrorMode;
  /** Quantum per dispatch; by default a node runs to completion in one dispatch. */
  readonly quantumNanos?: number;
  /** Spans kept (most recent); default 65 536. */
  readonly maxSpans?: number;
  /** Split ids are `splitIdBase + node index`, so several runs can share a backend. */
  readonly splitIdBase?: number;
  /**
   * Queue the next ready node behind each busy worker's quantum where the backend can (see the
   * header); default true. Off, every dispatch waits until its worker is idle.
   */
  readonly lookahead?: boolean;
  /** Learns each finished node's measured running time (all its quanta), keyed by node id. */
  readonly history?: CostHistory;
}

export interface CentralReport extends GraphReport {
  readonly dispatches: number;
  readonly spans: readonly GraphSpan[];
  readonly droppedSpans: number;
  readonly nodesPerSecond: number;
}

/** Runs `graph` on `backend` (which it takes over as listener) and resolves with the report. */
/** Starts `graph` on `backend`; the handle can cancel the run. */
export function startGraphCentral(
  backend: Backend,
  graph: CompiledGraph,
  options: CentralRunOptions = {},
): CentralGraphRun {
  return new CentralGraphRun(backend, graph, options);
}

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
  private readonly run: GraphRun;
  private readonly works: SplitWork[];
  private readonly doneNanos: Float64Array;
  /** Running time of the node's quanta so far (for the cost history). */
  private readonly ranNanos: Float64Array;
  private readonly history: CostHistory | undefined;
  private readonly onWorker: Uint8Array;
  /** Nodes between quanta (yielded, or woken after blocking), dispatched before new ones. */
  private readonly continuations: number[] = [];
  private readonly parked = new Map<number, () => void>();
  /** Whether `backend` queues dispatches and this run uses it. */
  private readonly pipelined: boolean;
  private readonly lookahead = new WorkerLookahead();
  private readonly spans: SpanRing;
  private readonly base: number;
  private readonly quantum: number;
  private dispatches = 0;
  private settled = false;
  private resolve!: (r: CentralReport) => void;
  private reject!: (e: unknown) => void;

  constructor(
    private readonly backend: Backend,
    private readonly graph: CompiledGraph,
    options: CentralRunOptions,
  ) {
    this.works = kernelWorks(graph);
    this.base = options.splitIdBase ?? 0;
    this.quantum = options.quantumNanos ?? Number.MAX_SAFE_INTEGER;
    this.spans = new SpanRing(options.maxSpans ?? 65_536);
    this.doneNanos = new Float64Array(graph.nodeCount);
    this.ranNanos = new Float64Array(graph.nodeCount);
    this.history = options.history;
    this.onWorker = new Uint8Array(graph.nodeCount);
    this.pipelined =
      (options.lookahead ?? true) &&
      backend.enqueue !== undefined &&
      backend.queueableWorkers !== undefined &&
      backend.revoke !== undefined;
    this.run = new GraphRun(
      graph,
      { policy: options.policy ?? 'fifo', errorMode: options.errorMode ?? 'fail-fast' },
      backend.now(),
    );
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    backend.setListener({ quantumEnd: (end) => this.guard(() => this.onQuantumEnd(end)) });
    this.guard(() => this.pump());
  }

  /**
   * Cancels the run: nothing new starts, pending and ready nodes become `cancelled`, running ones
   * are cancelled through the backend. `done` still resolves with the report (no root cause).
   */
  cancel(): void {
    this.guard(() => {
      this.run.stop();
      this.cancelRunning();
    });
  }

  private guard(fn: () => void): void {
    if (this.settled) return;
    try {
      fn();
      if (this.run.finished) this.finish();
    } catch (e) {
      this.settled = true;
      this.reject(e);
    }
  }

  private pump(): void {
    for (const workerId of this.backend.idleWorkers()) {
      let v = this.take();
      if (v < 0 && this.pipelined && !this.run.stopped) v = this.reclaim();
      if (v < 0) return;
      this.dispatch(v, workerId, false);
    }
    if (!this.pipelined || (this.continuations.length === 0 && this.run.readyCount === 0)) return;
    for (const workerId of this.lookahead.byExpectedEnd(this.backend.queueableWorkers!())) {
      const v = this.take();
      if (v < 0) return;
      this.dispatch(v, workerId, true);
    }
  }

  /** The next node to run: a continuation first, then the ready queue in policy order; or −1. */
  private take(): number {
    return this.continuations.length > 0 ? this.continuations.shift()! : this.run.next();
  }

  /** Takes back a node queued on a busy worker that has not started it (for an idle one), or −1. */
  private reclaim(): number {
    const v = this.lookahead.takeBack((q) => this.backend.revoke!(this.base + q));
    if (v >= 0) this.onWorker[v] = 0;
    return v;
  }

  private dispatch(v: number, workerId: number, queued: boolean): void {
    const template = this.works[this.graph.kernelOf[v]!]!;
    const fail = this.graph.failProbability?.[v] ?? 0;
    const work: SplitWork = {
      ...template,
      totalNanos: this.graph.costNanos[v]!,
      ...(fail > 0 ? { failProbability: fail } : {}),
    };
    this.onWorker[v] = 1;
    this.dispatches++;
    const dispatch = {
      splitId: this.base + v,
      workerId,
      quantumNanos: this.quantum,
      work,
      doneNanos: this.doneNanos[v]!,
    };
    if (queued) {
      this.lookahead.queued(workerId, v);
      this.backend.enqueue!(dispatch);
    } else {
      if (this.pipelined) this.lookahead.started(workerId, this.backend.now() + this.remaining(v));
      this.backend.start(dispatch);
    }
  }

  /** Nominal time `v` still needs in its next quantum (ns). */
  private remaining(v: number): number {
    return Math.min(this.quantum, Math.max(0, this.graph.costNanos[v]! - this.doneNanos[v]!));
  }

  private onQuantumEnd(end: QuantumEnd): void {
    const v = end.splitId - this.base;
    if (v < 0 || v >= this.graph.nodeCount || this.onWorker[v] !== 1) return; // not ours
    this.onWorker[v] = 0;
    // A node handed back unstarted (its worker lost or retired, or cancelled) leaves no span.
    const ran =
      !this.pipelined ||
      this.lookahead.ended(v, end.workerId, end.endNanos, (q) => this.remaining(q));
    if (ran || end.outcome === 'failed' || end.outcome === 'finished') {
      recordGraphSpan(this.spans, v, end.workerId, end.startNanos, end.endNanos, end.outcome);
    }
    const stopped = this.run.stopped;
    switch (end.outcome) {
      case 'finished':
        this.doneNanos[v] = 0;
        this.history?.record(this.graph.nodeId(v), this.ranNanos[v]! + end.ranNanos);
        this.ranNanos[v] = 0;
        this.run.succeeded(v, end.endNanos, end.ranNanos);
        break;
      case 'failed':
        this.doneNanos[v] = 0;
        this.ranNanos[v] = 0;
        this.run.failed(v, end.endNanos, end.ranNanos, end.error ?? 'failed');
        if (!stopped && this.run.stopped) this.cancelRunning();
        break;
      case 'cancelled':
        this.run.cancelled(v, end.endNanos, end.ranNanos);
        break;
      case 'yielded':
        this.doneNanos[v]! += end.workNanos;
        this.ranNanos[v]! += end.ranNanos;
        if (stopped) this.run.cancelled(v, end.endNanos, end.ranNanos);
        else this.continuations.push(v);
        this.run.addWork(end.endNanos, end.ranNanos, v);
        break;
      case 'blocked':
        this.doneNanos[v]! += end.workNanos;
        this.ranNanos[v]! += end.ranNanos;
        if (stopped) this.run.cancelled(v, end.endNanos, end.ranNanos);
        else this.park(v, end.endNanos + (end.blockedNanos ?? 0));
        this.run.addWork(end.endNanos, end.ranNanos, v);
        break;
    }
    this.pump();
  }

  private park(v: number, wakeAt: number): void {
    const cancelTimer = this.backend.setTimer(wakeAt, () =>
      this.guard(() => {
        this.parked.delete(v);
        this.continuations.push(v);
        this.pump();
      }),
    );
    this.parked.set(v, cancelTimer);
  }

  private cancelRunning(): void {
    const now = this.backend.now();
    for (const v of this.run.runningNodes()) {
      if (this.onWorker[v] === 1) this.backend.cancel(this.base + v);
      else {
        this.parked.get(v)?.();
        this.parked.delete(v);
        this.run.cancelled(v, now, 0);
      }
    }
    this.continuations.length = 0;
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    const report = this.run.report(this.backend.workerCount, this.backend.kind === 'threads');
    const seconds = report.makespanNanos / 1e9;
    this.resolve({
      ...report,
      dispatches: this.dispatches,
      spans: graphSpans(this.spans, this.graph.nodeId),
      droppedSpans: this.spans.dropped,
      nodesPerSecond: seconds > 0 ? this.graph.nodeCount / seconds : 0,
    });
  }
}

/** The work each kernel of `graph` runs (per `graph.kernelOf`); `UNKNOWN_KERNEL` for a bad name. */
export function kernelWorks(graph: CompiledGraph): SplitWork[] {
  return graph.kernels.map((k, i) => toWork(k, i, graph));
}

function toWork(
  kernel: CompiledGraph['kernels'][number],
  index: number,
  graph: CompiledGraph,
): SplitWork {
  if (kernel === null) return { kernel: DEFAULT_CENTRAL_KERNEL, totalNanos: 0 };
  if (typeof kernel !== 'string') {
    return {
      kernel:
        kernel.exportName === undefined
          ? { module: kernel.module }
          : { module: kernel.module, exportName: kernel.exportName },
      totalNanos: 0,
    };
  }
  // `spin-us` (the stealing executor's name) is `spin` here: one vocabulary for both executors.
  const name = canonicalKernel(kernel);
  if (!BACKEND_KERNELS.includes(name)) {
    throw new SchedLabError(
      'UNKNOWN_KERNEL',
      `kernel: no backend kernel "${kernel}" (node "${graph.nodeId(Math.max(0, firstNodeOfKernel(graph, index)))}")`,
      'kernel',
    );
  }
  return { kernel: name as KernelName, totalNanos: 0 };
}
