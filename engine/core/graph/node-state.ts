/**
 * Lifecycle of a graph node in a run (docs/design.md §3.4):
 *
 *   pending ──→ ready ──→ running ──→ succeeded
 *      │          │          ├──────→ failed      (retries exhausted)
 *      │          │          ├──────→ ready       (a retry: back in the ready queue)
 *      │          │          └──────→ cancelled   (fail-fast: stopped cooperatively)
 *      ├──→ skipped                  (continue: a predecessor failed or was skipped)
 *      └──→ cancelled ←──┘           (fail-fast: never dispatched)
 *
 * `succeeded`, `failed`, `skipped` and `cancelled` are terminal. Any other transition is a bug
 * and throws `ILLEGAL_TRANSITION`.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { NODE_STATES, type NodeStateName } from '../../../shared/protocol.ts';

export { NODE_STATES, type NodeStateName } from '../../../shared/protocol.ts';

export const PENDING = 0;
export const READY = 1;
export const RUNNING = 2;
export const SUCCEEDED = 3;
export const FAILED = 4;
export const SKIPPED = 5;
export const CANCELLED = 6;

const bit = (s: number) => 1 << s;
/** LEGAL[from] is a bit set of the states `from` may move to. */
const LEGAL: readonly number[] = [
  bit(READY) | bit(SKIPPED) | bit(CANCELLED),
  bit(RUNNING) | bit(CANCELLED),
  bit(SUCCEEDED) | bit(FAILED) | bit(READY) | bit(CANCELLED),
  0,
  0,
  0,
  0,
];

export function isTerminal(state: number): boolean {
  return state >= SUCCEEDED;
}

/** Moves `states[node]` to `to`, or throws naming the node and both states. */
export function transition(
  states: Uint8Array,
  node: number,
  to: number,
  nodeId: (i: number) => string,
): void {
  const from = states[node]!;
  if ((LEGAL[from]! & bit(to)) === 0) {
    throw new SchedLabError(
      'ILLEGAL_TRANSITION',
      `node ${nodeId(node)}: ${NODE_STATES[from]} → ${NODE_STATES[to]} is not a legal transition`,
      'state',
    );
  }
  states[node] = to;
}

/** Number of nodes in each state. */
export function countStates(states: Uint8Array): Record<NodeStateName, number> {
  const counts = new Array<number>(NODE_STATES.length).fill(0);
  for (let i = 0; i < states.length; i++) counts[states[i]!]!++;
  return Object.fromEntries(NODE_STATES.map((name, s) => [name, counts[s]!])) as Record<
    NodeStateName,
    number
  >;
}
