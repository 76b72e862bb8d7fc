/**
 * Pure run state of one graph under a central executor (docs/design.md §3.4). The executor asks
 * `next(now)` for a node to dispatch and reports each attempt's end with `succeeded`, `failed`
 * or `cancelled`; the run keeps per-node dependency counters, node states (see `node-state.ts`),
 * the policy-ordered ready queue, retries and the error mode. Time is passed in (ns).
 *
 * - `fail-fast`: the first failure that exhausts its retries is the root cause; nothing new is
 *   dispatched, pending and ready nodes become `cancelled`, and the executor should cancel the
 *   nodes still running (`runningNodes()`), which then end `cancelled` (or `succeeded`, if they
 *   finished first).
 * - `continue`: every descendant of a failed node becomes `skipped`; independent branches finish.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { GraphErrorMode, GraphPolicy } from '../../../shared/graph.ts';
import type { CompiledGraph } from './compile.ts';
import { graphMetrics, measuredCriticalPath, type GraphMetrics } from './metrics.ts';
import {
  CANCELLED,
  FAILED,
  PENDING,
  READY,
  RUNNING,
  SKIPPED,
  SUCCEEDED,
  countStates,
  transition,
  type NodeStateName,
} from './node-state.ts';
import { ReadyOrder } from './ready-order.ts';

export interface RootCause {
  readonly node: string;
  readonly index: number;
  readonly message: string;
}

export interface GraphReport extends GraphMetrics {
  readonly counts: Record<NodeStateName, number>;
  /** Per-node state codes (index → `NODE_STATES[code]`). */
  readonly states: Uint8Array;
  readonly rootCause: RootCause | null;
  readonly attempts: number;
}

export interface GraphRunOptions {
  readonly policy: GraphPolicy;
  readonly errorMode: GraphErrorMode;
}

export class GraphRun {
  readonly states: Uint8Array;
  /** Attempts started per node (1 + retries used). */
  readonly attempts: Uint16Array;
  private readonly pendingDeps: Int32Array;
  private readonly ready: ReadyOrder;
  private running = 0;
  private terminal = 0;
  private totalAttempts = 0;
  private workNanos = 0;
  /** Run time per node, all attempts and quanta (for the measured critical path). */
  private readonly ranNanos: Float64Array;
  private lastEnd: number;
  private halted = false;
  private cause: RootCause | null = null;

  constructor(
    readonly graph: CompiledGraph,
    readonly options: GraphRunOptions,
    readonly startNanos: number,
  ) {
    const n = graph.nodeCount;
    this.states = new Uint8Array(n);
    this.attempts = new Uint16Array(n);
    this.ranNanos = new Float64Array(n);
    this.pendingDeps = graph.inDegree.slice();
    this.ready = new ReadyOrder(graph, options.policy);
    this.lastEnd = startNanos;
    for (let v = 0; v < n; v++) if (this.pendingDeps[v] === 0) this.makeReady(v);
  }

  /** True when every node is terminal. */
  get finished(): boolean {
    return this.terminal === this.graph.nodeCount;
  }
  get runningCount(): number {
    return this.running;
  }
  get readyCount(): number {
    return this.ready.size;
  }
  /** True after a fail-fast failure or `stop()`: nothing new is dispatched. */
  get stopped(): boolean {
    return this.halted;
  }
  get rootCause(): RootCause | null {
    return this.cause;
  }

  /** The next node to dispatch (now `running`), or -1 when none is ready or the run stopped. */
  next(): number {
    if (this.halted) return -1;
    const v = this.ready.poll();
    if (v < 0) return -1;
    this.move(v, RUNNING);
    this.attempts[v]!++;
    this.totalAttempts++;
    this.running++;
    return v;
  }

  succeeded(v: number, now: number, ranNanos: number): void {
    this.endAttempt(v, now, ranNanos, SUCCEEDED);
    const { successorStart, successors } = this.graph;
    for (let k = successorStart[v]!; k < successorStart[v + 1]!; k++) {
      const s = successors[k]!;
      if (--this.pendingDeps[s]! === 0 && this.states[s] === PENDING) this.makeReady(s);
    }
  }

  /** An attempt failed; returns true when the node was re-queued for a retry. */
  failed(v: number, now: number, ranNanos: number, message: string): boolean {
    if (!this.halted && this.attempts[v]! <= this.graph.retries[v]!) {
      this.endAttempt(v, now, ranNanos, READY);
      this.ready.offer(v);
      return true;
    }
    this.endAttempt(v, now, ranNanos, FAILED);
    this.cause ??= { node: this.graph.nodeId(v), index: v, message };
    if (this.options.errorMode === 'fail-fast') this.stop();
    else this.skipDescendants(v);
    return false;
  }

  /** A running node stopped cooperatively (fail-fast) or was cancelled by the user. */
  cancelled(v: number, now: number, ranNanos: number): void {
    this.endAttempt(v, now, ranNanos, CANCELLED);
  }

  /** Work of a quantum that did not end its node `v` (it yielded or blocked). */
  addWork(now: number, ranNanos: number, v: number): void {
    this.workNanos += ranNanos;
    this.ranNanos[v]! += ranNanos;
    if (now > this.lastEnd) this.lastEnd = now;
  }

  /** Nodes currently running, for the executor to cancel after a fail-fast stop. */
  runningNodes(): number[] {
    const out: number[] = [];
    for (let v = 0; v < this.states.length && out.length < this.running; v++) {
      if (this.states[v] === RUNNING) out.push(v);
    }
    return out;
  }

  /** Cancels the run: nothing new starts; queued and pending nodes become `cancelled`. */
  stop(): void {
    if (this.halted) return;
    this.halted = true;
    for (let v = 0; v < this.states.length; v++) {
      const s = this.states[v]!;
      if (s === PENDING || s === READY) this.move(v, CANCELLED);
    }
  }

  /**
   * The run's figures. `measured` (real threads): CP is the longest path by measured run time,
   * so LB and efficiency use measured W and CP alike, the graph's declared ones beside them; on
   * the simulator a node runs for its cost and the declared CP is the run's — when every node
   * ran. A run that failed or stopped ran only part of the graph: its CP is the longest path by
   * what ran, as measured (the declared one gave efficiency 3 against a 1 ms makespan).
   */
  report(workers: number, measured = false): GraphReport {
    const makespan = this.lastEnd - this.startNanos;
    const g = this.graph;
    const counts = countStates(this.states);
    const complete = counts.succeeded === g.nodeCount;
    const declaredCp = complete ? g.criticalPathNanos : measuredCriticalPath(g, this.ranNanos);
    const metrics = measured
      ? {
          ...graphMetrics(
            workers,
            makespan,
            this.workNanos,
            measuredCriticalPath(g, this.ranNanos),
          ),
          declaredWorkNanos: g.workNanos,
          declaredCriticalPathNanos: g.criticalPathNanos,
        }
      : graphMetrics(workers, makespan, this.workNanos, declaredCp);
    return {
      ...metrics,
      counts,
      states: this.states,
      rootCause: this.cause,
      attempts: this.totalAttempts,
    };
  }

  private endAttempt(v: number, now: number, ranNanos: number, to: number): void {
    if (this.states[v] !== RUNNING) {
      throw new SchedLabError(
        'ILLEGAL_TRANSITION',
        `node ${this.graph.nodeId(v)} is not running`,
        'state',
      );
    }
    this.move(v, to);
    this.running--;
    this.workNanos += ranNanos;
    this.ranNanos[v]! += ranNanos;
    if (now > this.lastEnd) this.lastEnd = now;
  }

  private makeReady(v: number): void {
    transition(this.states, v, READY, this.graph.nodeId);
    this.ready.offer(v);
  }

  private move(v: number, to: number): void {
    transition(this.states, v, to, this.graph.nodeId);
    if (to >= SUCCEEDED) this.terminal++;
  }

  /** Continue mode: every node reachable from `v` that has not run becomes `skipped`. */
  private skipDescendants(v: number): void {
    const { successorStart, successors } = this.graph;
    const stack = [v];
    while (stack.length > 0) {
      const u = stack.pop()!;
      for (let k = successorStart[u]!; k < successorStart[u + 1]!; k++) {
        const s = successors[k]!;
        if (this.states[s] !== PENDING) continue; // already skipped via another path
        this.move(s, SKIPPED);
        stack.push(s);
      }
    }
  }
}
