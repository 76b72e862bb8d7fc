/**
 * How a quantum ends — the one list. A span stores the index (frames and rings send a small
 * integer per span, not a string), so the order is part of the protocol: append, never reorder.
 */
export const QUANTUM_OUTCOMES = ['yielded', 'blocked', 'finished', 'failed', 'cancelled'] as const;

export type QuantumOutcome = (typeof QUANTUM_OUTCOMES)[number];

/** Index in `QUANTUM_OUTCOMES`; a switch, not a search: it runs once per quantum. */
export function outcomeIndex(outcome: QuantumOutcome): number {
  switch (outcome) {
    case 'yielded':
      return 0;
    case 'blocked':
      return 1;
    case 'finished':
      return 2;
    case 'failed':
      return 3;
    case 'cancelled':
      return 4;
  }
}

/** The outcome at an index (an unknown index reads as `yielded`). */
export function outcomeAt(index: number): QuantumOutcome {
  return QUANTUM_OUTCOMES[index] ?? 'yielded';
}
