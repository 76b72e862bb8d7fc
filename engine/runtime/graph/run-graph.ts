/**
 * Runs a graph document as its `executor` field says (docs/design.md §3.4: selectable per run):
 * `central` drives the given backend (a sim backend is run to idle here), `stealing` uses the
 * given work-stealing executor. The document's `policy` (central only: work stealing has no
 * ready queue) and `errorMode` apply to the run. A caller that has already validated and compiled
 * the document passes both to `runCompiledGraph`, so a graph is compiled once per run.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { parseGraphDocument, type GraphDocument } from '../../../shared/graph.ts';
import { compileDocument, type CompiledGraph } from '../../core/graph/compile.ts';
import { withCosts, type CostHistory } from '../../core/graph/cost-history.ts';
import type { Backend } from '../backend.ts';
import { SimBackend } from '../sim/index.ts';
import type { StealingExecutor, StealingReport } from '../stealing/stealing-executor.ts';
import { runGraphCentral, type CentralReport } from './central-executor.ts';

export interface GraphExecutors {
  readonly backend?: Backend;
  readonly stealing?: StealingExecutor;
  /** Central runs learn node costs here and are ranked by them (spec cost where none is known). */
  readonly history?: CostHistory;
  /** Central runs' hard limit (`CentralRunOptions.hardKillAfterMs`): the run's setting. */
  readonly hardKillAfterMs?: number;
  /**
   * On a `SimBackend`, run it to idle here, in one call (default); false: the caller drives it
   * (a host's report runs it in slices, so its event loop gets turns: `runSimToIdle`).
   */
  readonly driveSim?: boolean;
}

export type GraphRunResult =
  | ({ readonly executor: 'central' } & CentralReport)
  | ({ readonly executor: 'stealing' } & StealingReport);

export async function runGraphDocument(
  input: unknown,
  executors: GraphExecutors,
): Promise<GraphRunResult> {
  const doc = parseGraphDocument(input);
  return runCompiledGraph(doc, compileDocument(doc), executors);
}

/** Runs `graph`, compiled from the validated `doc`, as `doc` says. */
export async function runCompiledGraph(
  doc: GraphDocument,
  graph: CompiledGraph,
  executors: GraphExecutors,
): Promise<GraphRunResult> {
  if (doc.executor === 'stealing') {
    if (executors.stealing === undefined) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'executor: no work-stealing executor is running',
        'executor',
      );
    }
    return {
      executor: 'stealing',
      ...(await executors.stealing.run(graph, { errorMode: doc.errorMode })),
    };
  }
  const backend = executors.backend;
  if (backend === undefined)
    throw new SchedLabError('INVALID_ARGUMENT', 'executor: no backend to run on', 'executor');
  const history = executors.history;
  const ranked = history === undefined ? graph : withCosts(graph, history);
  const done = runGraphCentral(backend, ranked, {
    policy: doc.policy,
    errorMode: doc.errorMode,
    ...(history === undefined ? {} : { history }),
    ...(executors.hardKillAfterMs === undefined
      ? {}
      : { hardKillAfterMs: executors.hardKillAfterMs }),
  });
  if (backend instanceof SimBackend && executors.driveSim !== false) backend.runUntilIdle();
  return { executor: 'central', ...(await done) };
}
