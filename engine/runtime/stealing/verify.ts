/**
 * Checks a finished work-stealing run against its graph: every node reached a terminal state and
 * (with `verify`) was processed exactly once and only after every predecessor finished (global
 * start/finish stamps), and every `add` node holds its expected result. The same pass counts the
 * nodes in each state for the report (one walk over the states, not two).
 */
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { NODE_STATES, SUCCEEDED, type NodeStateName } from '../../core/graph/node-state.ts';
import { addResult } from './kernels.ts';
import type { RunViews } from './layout.ts';

export interface Verification {
  readonly ok: boolean;
  /** What was checked: `order` includes exactly-once and predecessor order. */
  readonly checked: 'order' | 'results';
  /** The first few violations, naming nodes. */
  readonly problems: readonly string[];
}

export interface CheckedRun {
  readonly verification: Verification;
  readonly counts: Record<NodeStateName, number>;
}

const MAX_PROBLEMS = 10;

/**
 * `states` is the report's copy; the rest is read in the shared memory `v`, which no run touches
 * until this one's report is built.
 */
export function verifyRun(
  graph: CompiledGraph,
  v: RunViews,
  states: Uint8Array,
  kernelNames: readonly string[],
  full: boolean,
): CheckedRun {
  const problems: string[] = [];
  const report = (p: string) => problems.length < MAX_PROBLEMS && problems.push(p);
  const addIndex = kernelNames.indexOf('add');
  const { successorStart, successors, nodeId, nodeCount } = graph;
  const { kernelOf, results } = v;
  const tally = new Int32Array(NODE_STATES.length);
  // Every run pays for this pass, so it reads only typed arrays and names nodes only on a problem.
  // Succeeded nodes (nearly all, usually) are counted by difference, not a tally each.
  let others = 0;
  const onlyAdd = kernelNames.length === 1 && addIndex === 0;
  for (let u = 0; u < nodeCount; u++) {
    const state = states[u]!;
    if (state === SUCCEEDED) {
      if ((onlyAdd || kernelOf[u] === addIndex) && results[u] !== addResult(u))
        report(`node ${nodeId(u)} has a wrong result`);
      continue;
    }
    others++;
    tally[state]!++;
    if (state < SUCCEEDED) report(`node ${nodeId(u)} never finished (state ${state})`);
  }
  tally[SUCCEEDED] = nodeCount - others;
  if (full) {
    const { runCount, startStamp, finishStamp } = v;
    for (let u = 0; u < nodeCount; u++) {
      if (runCount[u] !== 1) report(`node ${nodeId(u)} was processed ${runCount[u]} times`);
      for (let k = successorStart[u]!; k < successorStart[u + 1]!; k++) {
        const s = successors[k]!;
        if (finishStamp[u]! >= startStamp[s]!)
          report(`node ${nodeId(s)} started before its predecessor ${nodeId(u)} finished`);
      }
    }
  }
  const counts = {} as Record<NodeStateName, number>;
  NODE_STATES.forEach((name, s) => (counts[name] = tally[s]!));
  return {
    verification: { ok: problems.length === 0, checked: full ? 'order' : 'results', problems },
    counts,
  };
}
