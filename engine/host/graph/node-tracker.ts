/**
 * Node states of a running central graph, followed from the outside (its node splits handed to
 * the session's executor, and their ends: engine/runtime/graph/executor-graph.ts) so frames can count pending / ready / running / done nodes while
 * the run goes on. It mirrors `GraphRun`'s rules for what it can see — a node is ready when its
 * last predecessor succeeded, a failed attempt with retries left is ready again — and is replaced
 * by the run's own final states when the run ends (skips and cancellations are only known then).
 */
import type { CompiledGraph } from '../../core/graph/compile.ts';
import {
  CANCELLED,
  FAILED,
  isTerminal,
  NODE_STATES,
  PENDING,
  READY,
  RUNNING,
  SUCCEEDED,
  type NodeStateName,
} from '../../core/graph/node-state.ts';
import type { QuantumOutcome } from '../../runtime/backend.ts';

export class NodeTracker {
  private readonly states: Uint8Array;
  private readonly pendingDeps: Int32Array;
  private readonly attempts: Uint16Array;
  private readonly counts = new Float64Array(NODE_STATES.length);

  constructor(private readonly graph: CompiledGraph) {
    const n = graph.nodeCount;
    this.states = new Uint8Array(n);
    this.pendingDeps = graph.inDegree.slice();
    this.attempts = new Uint16Array(n);
    this.counts[PENDING] = n;
    for (let v = 0; v < n; v++) if (this.pendingDeps[v] === 0) this.move(v, READY);
  }

  /** A quantum of node `v` was dispatched (its first, or a continuation). */
  started(v: number): void {
    if (this.states[v] === READY) this.move(v, RUNNING);
  }

  ended(v: number, outcome: QuantumOutcome): void {
    switch (outcome) {
      case 'finished':
        this.move(v, SUCCEEDED);
        for (let k = this.graph.successorStart[v]!; k < this.graph.successorStart[v + 1]!; k++) {
          const s = this.graph.successors[k]!;
          if (--this.pendingDeps[s]! === 0 && this.states[s] === PENDING) this.move(s, READY);
        }
        break;
      case 'failed':
        this.attempts[v]!++;
        this.move(v, this.attempts[v]! <= this.graph.retries[v]! ? READY : FAILED);
        break;
      case 'cancelled':
        this.move(v, CANCELLED);
        break;
      case 'yielded':
      case 'blocked':
        break; // still the executor's: running between quanta
    }
  }

  /** True once the run's own final states (`settle`) or `abandon` replaced the followed ones. */
  settled = false;

  /** The run's own final states (what `GraphRun` decided, skips and cancellations included). */
  settle(states: Uint8Array): void {
    this.settled = true;
    this.counts.fill(0);
    for (let v = 0; v < states.length; v++) {
      this.states[v] = states[v]!;
      this.counts[states[v]!]!++;
    }
  }

  /**
   * The graph ended without its run's own states — it never ran (an earlier graph failed
   * fail-fast, or the list was cancelled), or its run threw: every node not ended is cancelled,
   * as a stopped run's are, so a finished run's counts add up.
   */
  abandon(): void {
    this.settled = true;
    for (let v = 0; v < this.states.length; v++) {
      if (!isTerminal(this.states[v]!)) this.move(v, CANCELLED);
    }
  }

  count(state: NodeStateName): number {
    return this.counts[NODE_STATES.indexOf(state)] ?? 0;
  }

  private move(v: number, to: number): void {
    this.counts[this.states[v]!]!--;
    this.states[v] = to;
    this.counts[to]!++;
  }
}
