/**
 * Turns what a live session is asked to run (a graph workload, or a bare graph document) into
 * compiled graphs with the session's overrides applied — everything checked before anything
 * starts, so a cyclic or unknown-kernel document is refused (`INVALID_GRAPH`, `UNKNOWN_KERNEL`)
 * and the session runs on untouched. `planGraphSteps` does the compiling in bounded steps, so a live
 * session driving it between frames (drive-steps.ts) keeps its frames flowing while a graph at the
 * size limit is built.
 *
 * The presets name the threads kernel `spin` (busy for the node's cost); the stealing executor's
 * equivalent is `spin-us`, so a run switched to stealing maps one to the other.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { prefixField } from '../../../shared/schema-error.ts';
import type {
  GraphDocument,
  GraphErrorMode,
  GraphExecutorKind,
  GraphPolicy,
} from '../../../shared/graph.ts';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { KERNEL_NAMES, type GraphConfig } from '../../../shared/protocol.ts';
import {
  compileDocumentSteps,
  firstNodeOfKernel,
  type CompiledGraph,
} from '../../core/graph/compile.ts';
import { canonicalKernel } from '../../core/graph/kernels.ts';
import { runSteps, UNBOUNDED, type Steps } from '../../core/graph/steps.ts';
import { STEALING_KERNELS } from '../../runtime/stealing/kernels.ts';

export interface GraphPlan {
  readonly executor: GraphExecutorKind;
  readonly policy: GraphPolicy;
  readonly errorMode: GraphErrorMode;
  readonly graphs: readonly CompiledGraph[];
}

/** True for a bare graph document (nodes or a generator), as opposed to a workload. */
export function isGraphDocument(doc: unknown): boolean {
  return (
    typeof doc === 'object' &&
    doc !== null &&
    !('graph' in doc) &&
    ('generator' in doc || 'nodes' in doc)
  );
}

/**
 * `raw` is one graph document or a list (a workload's `graph` field). The first document decides
 * executor, policy and error mode for the run unless `config` overrides them.
 */
export function planGraphs(raw: unknown, config: GraphConfig): GraphPlan {
  return runSteps(planGraphSteps(raw, config, UNBOUNDED));
}

/**
 * What a list of graphs runs under: the first document's executor, policy and error mode, for
 * every graph of the list, unless `config` overrides them. The one rule for a live session and the
 * CLI (engine/host/report/run-graph.ts), so a list runs the same headless and in the app.
 */
export function listSettings(
  docs: readonly GraphDocument[],
  config: Partial<GraphConfig> = {},
): Pick<GraphPlan, 'executor' | 'policy' | 'errorMode'> {
  const first = docs[0]!;
  return {
    executor: config.executor ?? first.executor,
    policy: config.graphPolicy ?? first.policy,
    errorMode: config.graphErrorMode ?? first.errorMode,
  };
}

/** `planGraphs` pausing after about `unitsPerStep` units of compiling (see core/graph/steps.ts). */
export function* planGraphSteps(
  raw: unknown,
  config: GraphConfig,
  unitsPerStep: number,
): Steps<GraphPlan> {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0)
    throw new SchedLabError('INVALID_GRAPH', 'graph: the list of graphs is empty', 'graph');
  const docs = list.map((d, i) => parseGraphDocument(d, list.length > 1 ? ['graph', i] : []));
  const { executor, policy, errorMode } = listSettings(docs, config);
  const graphs: CompiledGraph[] = [];
  for (const [i, d] of docs.entries()) {
    const path = list.length > 1 ? ['graph', i] : [];
    graphs.push(yield* checkedGraphSteps(d, executor, path, unitsPerStep));
  }
  return { executor, policy, errorMode, graphs };
}

/**
 * `doc` compiled for `executor`, its kernels checked: a cyclic or dangling graph, or a kernel the
 * executor lacks, is named under `path`, where the document sits (`graph[1].edges[0].to`).
 */
export function* checkedGraphSteps(
  doc: GraphDocument,
  executor: GraphExecutorKind,
  path: readonly (string | number)[],
  unitsPerStep: number,
): Steps<CompiledGraph> {
  try {
    const graph = yield* compileDocumentSteps(forExecutor(doc, executor), unitsPerStep);
    checkKernels(graph, executor, doc);
    return graph;
  } catch (e) {
    if (path.length === 0 || !(e instanceof SchedLabError)) throw e;
    throw prefixField(e, [...path]);
  }
}

/**
 * `checkedGraphSteps` without a pause (the CLI, which has no frames to keep flowing); with
 * `pastLimit`, asked between steps of `LIMIT_STEP_UNITS` (the CLI's `--time-limit`), an error it
 * returns stops the compile.
 */
export function checkedGraph(
  doc: GraphDocument,
  executor: GraphExecutorKind,
  path: readonly (string | number)[],
  pastLimit?: () => Error | null,
): CompiledGraph {
  if (pastLimit === undefined) return runSteps(checkedGraphSteps(doc, executor, path, UNBOUNDED));
  const steps = checkedGraphSteps(doc, executor, path, LIMIT_STEP_UNITS);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    const late = pastLimit();
    if (late !== null) throw late;
  }
}

/** Tens of ms of compiling between two looks at a time limit (65,536 units take 1–2 ms). */
const LIMIT_STEP_UNITS = 1 << 20;

function forExecutor(doc: GraphDocument, executor: GraphExecutorKind): GraphDocument {
  if (executor !== 'stealing') return doc;
  const map = <K>(k: K) => (k === 'spin' ? 'spin-us' : k);
  return 'generator' in doc
    ? { ...doc, ...(doc.kernel === undefined ? {} : { kernel: map(doc.kernel) }) }
    : {
        ...doc,
        nodes: doc.nodes.map((n) => (n.kernel === undefined ? n : { ...n, kernel: map(n.kernel) })),
      };
}

/**
 * An unknown kernel is named where it is written: `nodes[3].kernel` (node "b") in an explicit
 * document, the generator's `kernel` otherwise.
 */
function checkKernels(graph: CompiledGraph, executor: GraphExecutorKind, doc: GraphDocument): void {
  const known: readonly string[] = executor === 'stealing' ? STEALING_KERNELS : KERNEL_NAMES;
  const refuse = (index: number, what: string) => {
    const v = firstNodeOfKernel(graph, index);
    const explicit = !('generator' in doc) && v >= 0;
    const field = explicit ? `nodes[${v}].kernel` : 'kernel';
    const node = v >= 0 ? ` (node "${graph.nodeId(v)}")` : '';
    throw new SchedLabError('UNKNOWN_KERNEL', `${field}${node}: ${what}`, field);
  };
  graph.kernels.forEach((k, index) => {
    if (k === null) return;
    if (typeof k !== 'string') {
      if (executor === 'stealing')
        refuse(index, `the stealing executor runs built-in kernels only (${known.join(', ')})`);
      return;
    }
    // `spin-us` is `spin` by another name on either executor (core/graph/kernels.ts).
    if (!known.includes(k) && !known.includes(canonicalKernel(k)))
      refuse(index, `the ${executor} executor has no kernel "${k}" (${known.join(', ')})`);
  });
}
