/**
 * Bounded record of a graph run's quanta (node, worker, start, end, outcome) for the Gantt and the
 * trace: a ring over typed arrays keeping the most recent `capacity` spans and counting the
 * dropped ones, so a million-node run cannot exhaust memory.
 */
import { outcomeAt, outcomeIndex, type QuantumOutcome } from '../../../shared/lib/outcomes.ts';

export interface GraphSpan {
  readonly node: string;
  readonly nodeIndex: number;
  readonly workerId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly outcome: QuantumOutcome;
}

export class SpanRing {
  private readonly node: Int32Array;
  private readonly worker: Int32Array;
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  private readonly outcome: Uint8Array;
  private written = 0;

  constructor(readonly capacity: number) {
    this.node = new Int32Array(capacity);
    this.worker = new Int32Array(capacity);
    this.start = new Float64Array(capacity);
    this.end = new Float64Array(capacity);
    this.outcome = new Uint8Array(capacity);
  }

  get dropped(): number {
    return Math.max(0, this.written - this.capacity);
  }

  record(
    node: number,
    workerId: number,
    startNanos: number,
    endNanos: number,
    outcome: QuantumOutcome,
  ): void {
    if (this.capacity === 0) {
      this.written++;
      return;
    }
    const i = this.written++ % this.capacity;
    this.node[i] = node;
    this.worker[i] = workerId;
    this.start[i] = startNanos;
    this.end[i] = endNanos;
    this.outcome[i] = outcomeIndex(outcome);
  }

  /** Retained spans, oldest first. */
  toArray(nodeId: (i: number) => string): GraphSpan[] {
    const count = Math.min(this.written, this.capacity);
    const first = this.written - count;
    return Array.from({ length: count }, (_, k) => {
      const i = (first + k) % this.capacity;
      const nodeIndex = this.node[i]!;
      return {
        node: nodeId(nodeIndex),
        nodeIndex,
        workerId: this.worker[i]!,
        startNanos: this.start[i]!,
        endNanos: this.end[i]!,
        outcome: outcomeAt(this.outcome[i]!),
      };
    });
  }
}
