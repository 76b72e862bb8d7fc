/**
 * `--progress` for a graph workload: nodes finished out of all the workload's nodes, counted off
 * the backend's quantum ends (the central executor reports its figures only when a graph ends).
 * A node counts when its last quantum finishes; at each graph's end every node of it is settled
 * (failed and skipped ones too), so the count jumps to the graphs' total. A work-stealing graph
 * never touches the backend, so it is seen at its end only.
 */
import type { Dispatch, QuantumEnd } from '../../runtime/backend.ts';
import type { BackendTap } from '../graph/tapped-backend.ts';

export interface GraphProgress {
  readonly nodesDone: number;
  readonly nodes: number;
  readonly graphsDone: number;
  readonly dispatches: number;
}

/** Nodes between reports: one call per 256 is nothing on a 10M-node chain and plenty for 10 Hz. */
const EVERY = 256;

export class GraphProgressTap implements BackendTap {
  private done = 0;
  private graphsDone = 0;
  private dispatches = 0;

  constructor(
    readonly nodes: number,
    private readonly report: (p: GraphProgress) => void,
  ) {}

  started(_dispatch: Dispatch): void {
    this.dispatches++;
  }

  ended(end: QuantumEnd): void {
    if (end.outcome !== 'finished') return;
    this.done++;
    if (this.done % EVERY === 0) this.emit();
  }

  /** A graph ended: `settled` nodes of the workload (this graph's and those before) are done. */
  graphEnded(settled: number): void {
    this.done = settled;
    this.graphsDone++;
    this.emit();
  }

  emit(): void {
    const { done, nodes, graphsDone, dispatches } = this;
    this.report({ nodesDone: done, nodes, graphsDone, dispatches });
  }
}
