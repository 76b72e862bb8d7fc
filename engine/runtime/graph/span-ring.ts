/**
 * A graph run's quanta on the one span ring (`shared/lib/span-ring.ts`), for the Gantt and the
 * trace: the ring keeps the most recent spans and counts the dropped ones, so a million-node run
 * cannot exhaust memory. A graph span puts the node's index in `split` (job, task, level and
 * class are 0: one graph, one run); `GraphSpan` is how reports carry it.
 */
import { outcomeAt, outcomeIndex, type QuantumOutcome } from '../../../shared/lib/outcomes.ts';
import type { SpanRing } from '../../../shared/lib/span-ring.ts';

export interface GraphSpan {
  readonly node: string;
  readonly nodeIndex: number;
  readonly workerId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly outcome: QuantumOutcome;
}

export function recordGraphSpan(
  ring: SpanRing,
  node: number,
  workerId: number,
  startNanos: number,
  endNanos: number,
  outcome: QuantumOutcome,
): void {
  ring.record(workerId, startNanos, endNanos, 0, 0, node, 0, outcomeIndex(outcome), 0);
}

/** The spans held, oldest first. */
export function graphSpans(ring: SpanRing, nodeId: (i: number) => string): GraphSpan[] {
  return Array.from({ length: ring.size }, (_, k) => {
    const i = ring.slot(k);
    const nodeIndex = ring.split[i]!;
    return {
      node: nodeId(nodeIndex),
      nodeIndex,
      workerId: ring.worker[i]!,
      startNanos: ring.start[i]!,
      endNanos: ring.end[i]!,
      outcome: outcomeAt(ring.outcome[i]!),
    };
  });
}
