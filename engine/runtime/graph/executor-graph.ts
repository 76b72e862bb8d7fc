/**
 * A graph run as one job of the session's `Executor` (docs/design.md §3.4, §4): the job has one
 * open task, and each graph node becomes one split of it when it is ready. Finishing a node
 * releases its successors into the graph's ready queue (`GraphRun`, ordered by the graph policy);
 * from there at most one node per worker is handed to the executor at a time, so the graph
 * policy picks which ready node goes next while the executor's policy (mlfq, fair, …) arbitrates
 * between this job and every other. Quanta, yields, blocking, spans and frames are the
 * executor's own: nothing is paused and no second dispatch loop runs.
 *
 * Errors follow `GraphRun`: a node's retries are the graph's (each attempt is a new split); a
 * failure past them skips the node's descendants (`continue`) or stops the run (`fail-fast`),
 * which fails the job at once, so its queued and running nodes end `cancelled`; a `continue` run
 * with a failed node fails its job when the run ends. A run cancelled (here, or the job from the
 * executor) cancels the job.
 */
import type { GraphErrorMode, GraphPolicy } from '../../../shared/graph.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { GraphRun, type GraphReport } from '../../core/graph/graph-run.ts';
import type { SplitWork } from '../backend.ts';
import type { Executor, SplitEnd, SplitOffWorker } from '../executor/index.ts';
import { kernelWorks } from './kernel-works.ts';

export interface ExecutorGraphOptions {
  readonly policy?: GraphPolicy;
  readonly errorMode?: GraphErrorMode;
  /** The job's class (its spans' name and its latency row); default `graph`. */
  readonly class?: string;
  /**
   * Nodes live in the executor at most (default one a worker). A headless run with the
   * executor's `pipeline` on passes two a worker, so a busy worker can hold the next node.
   */
  readonly window?: number;
  /** Told each node as it goes to the executor, and each node attempt's end. */
  readonly onNode?: (event: ExecutorGraphEvent) => void;
}

export type ExecutorGraphEvent =
  | { readonly kind: 'started'; readonly node: number; readonly splitId: number }
  | {
      readonly kind: 'ended';
      readonly node: number;
      readonly splitId: number;
      readonly state: SplitEnd['state'];
      /** The attempt's running time, all its quanta (ns). */
      readonly ranNanos: number;
    };

export interface ExecutorGraphReport extends GraphReport {
  readonly jobId: number;
  /** Splits the run handed to the executor (one per node attempt). */
  readonly splits: number;
}

export class ExecutorGraph {
  readonly jobId: number;
  readonly done: Promise<ExecutorGraphReport>;
  private readonly run: GraphRun;
  private readonly works: SplitWork[];
  private readonly taskId: number;
  /** The node of each of this run's splits still live in the executor. */
  private readonly nodeOf = new Map<number, number>();
  /**
   * Those of them blocked now (a `sleep` node's wait): they hold no worker, so they do not count
   * against the release window. Counted, a graph of sleeping nodes left its workers idle while
   * ready nodes waited: 16 nodes sleeping 50 ms on 2 workers took 400 ms on the simulator, not 50.
   */
  private readonly blocked = new Set<number>();
  /**
   * Nodes cancelled while a quantum of theirs ran, by split, with the time told at their end: the
   * run waits for that quantum's time (`offWorker`), so its work counts every quantum the Gantt
   * shows. Ended without it, a node cancelled mid-quantum lost that quantum from `workNanos`.
   */
  private readonly onWorker = new Map<number, { node: number; ranNanos: number }>();
  private splits = 0;
  private settled = false;
  private readonly unsubscribe: () => void;
  private resolve!: (r: ExecutorGraphReport) => void;
  private reject!: (e: unknown) => void;

  constructor(
    private readonly executor: Executor,
    private readonly graph: CompiledGraph,
    private readonly options: ExecutorGraphOptions = {},
  ) {
    this.works = kernelWorks(graph);
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.run = new GraphRun(
      graph,
      { policy: options.policy ?? 'fifo', errorMode: options.errorMode ?? 'fail-fast' },
      executor.now(),
    );
    this.jobId = executor.submitJob({
      class: options.class ?? 'graph',
      tasks: [{ splits: [], open: true }],
    });
    executor.ownSplitFailures(this.jobId);
    this.taskId = executor.taskIds(this.jobId)[0] ?? -1;
    const ends = executor.onSplitEnd((e) => {
      if (e.jobId === this.jobId) this.guard(() => this.ended(e));
    });
    const offWorker = executor.onSplitOffWorker((e) => {
      if (e.jobId === this.jobId) this.guard(() => this.offWorker(e));
    });
    const parks = executor.onSplitParked((e) => {
      if (e.jobId !== this.jobId || !this.nodeOf.has(e.splitId)) return;
      if (!e.blocked) {
        this.blocked.delete(e.splitId);
        return;
      }
      this.blocked.add(e.splitId);
      this.guard(() => {
        if (!this.run.stopped) this.release();
      });
    });
    this.unsubscribe = () => {
      ends();
      offWorker();
      parks();
    };
    this.guard(() => this.release());
  }

  /** Stops the run: nothing new starts, the job is cancelled; `done` resolves with the report. */
  cancel(): void {
    this.guard(() => this.stop());
  }

  private guard(fn: () => void): void {
    if (this.settled) return;
    try {
      fn();
      if (this.run.finished && this.onWorker.size === 0) this.finish();
    } catch (e) {
      this.settled = true;
      this.unsubscribe();
      this.executor.cancelJob(this.jobId);
      this.reject(e);
    }
  }

  /** Hands ready nodes, in graph-policy order, to the executor while fewer than one a worker are live. */
  private release(): void {
    if (this.executor.jobState(this.jobId) !== 'running') {
      this.stop(); // cancelled from outside (a user's cancel, the executor closing)
      return;
    }
    const window = Math.max(1, this.options.window ?? this.executor.config.workers);
    while (this.nodeOf.size - this.blocked.size < window) {
      const v = this.run.next();
      if (v < 0) return;
      const fail = this.graph.failProbability?.[v] ?? 0;
      const work: SplitWork = {
        ...this.works[this.graph.kernelOf[v]!]!,
        totalNanos: this.graph.costNanos[v]!,
        ...(fail > 0 ? { failProbability: fail } : {}),
      };
      const [id] = this.executor.addSplits(this.taskId, [{ kind: 'intermediate', work }]);
      this.nodeOf.set(id!, v);
      this.splits++;
      this.options.onNode?.({ kind: 'started', node: v, splitId: id! });
    }
  }

  private ended(e: SplitEnd): void {
    const v = this.nodeOf.get(e.splitId);
    if (v === undefined) return;
    this.nodeOf.delete(e.splitId);
    this.blocked.delete(e.splitId);
    const ran = e.scheduledNanos;
    this.options.onNode?.({
      kind: 'ended',
      node: v,
      splitId: e.splitId,
      state: e.state,
      ranNanos: ran,
    });
    if (e.state === 'succeeded') this.run.succeeded(v, e.endNanos, ran);
    else if (e.state === 'cancelled') {
      this.run.cancelled(v, e.endNanos, ran);
      // Its quantum runs on: the run ends once that quantum's time is in (`offWorker`).
      if (e.stillRunning === true) this.onWorker.set(e.splitId, { node: v, ranNanos: ran });
    } else {
      const wasStopped = this.run.stopped;
      this.run.failed(v, e.endNanos, ran, e.error ?? e.errorCode ?? 'KERNEL_FAILED');
      if (!wasStopped && this.run.stopped) return this.stop();
    }
    if (!this.run.stopped) this.release();
  }

  /** A node cancelled while it ran is off its worker: the time it ran on counts in the work. */
  private offWorker(e: SplitOffWorker): void {
    const late = this.onWorker.get(e.splitId);
    if (late === undefined) return;
    this.onWorker.delete(e.splitId);
    this.run.addWork(e.endNanos, e.scheduledNanos - late.ranNanos, late.node);
  }

  /**
   * Stops the graph run and ends the job — failed with the root cause, if there is one, else
   * cancelled: its live splits end `cancelled` (above).
   */
  private stop(): void {
    this.run.stop();
    if (this.executor.jobState(this.jobId) === 'running') this.endJob();
    // Nodes the executor no longer knows (the job ended without their split ends reaching us).
    const now = this.executor.now();
    for (const [id, v] of this.nodeOf) {
      this.nodeOf.delete(id);
      this.run.cancelled(v, now, 0);
    }
    this.blocked.clear();
  }

  private endJob(): void {
    const cause = this.run.rootCause;
    if (cause === null) this.executor.cancelJob(this.jobId);
    else this.executor.failJob(this.jobId, `${cause.node}: ${cause.message}`, 'KERNEL_FAILED');
  }

  private finish(): void {
    this.settled = true;
    this.unsubscribe();
    if (this.executor.jobState(this.jobId) === 'running') {
      if (this.run.rootCause === null) this.executor.closeTask(this.taskId);
      else this.endJob();
    }
    const measured = this.executor.backend.kind === 'threads';
    const report = this.run.report(this.executor.config.workers, measured);
    this.resolve({ ...report, jobId: this.jobId, splits: this.splits });
  }
}
