/**
 * The graph side of a live session: the graph config (`configureGraph`), the current (or last)
 * graph run, and how it shares the session's workers: a `central` graph runs as jobs of the
 * session's executor (live-graph.ts), beside whatever else runs there, under the executor's
 * policy; a `stealing` graph runs on its own pool with as many workers as the session has.
 * Nothing is paused for a graph, and a user's `pause` pauses a central graph's nodes too.
 *
 * A graph is prepared (generated and compiled) in bounded steps between frames before it starts,
 * so a graph at the size limit does not stall the session's frames (docs/limits.md); what runs
 * meanwhile runs on. A later `start`, or `cancel`, abandons a preparation under way.
 */
import type {
  Frame,
  GraphConfig,
  GraphConfigPatch,
  GraphRunStarted,
  SpanColumns,
} from '../../../shared/protocol.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import type { Executor } from '../../runtime/executor/index.ts';
import { driveSteps } from './drive-steps.ts';
import { planGraphSteps, type GraphPlan } from './graph-docs.ts';
import { LiveGraph } from './live-graph.ts';

/** Graph runs' job ids start here, clear of the executor's. */
export const GRAPH_JOB_BASE = 1_000_000_000;

/**
 * Units of work (a node or an edge through one pass) per step of a graph's preparation: a few ms
 * here, so a 2^20-node graph is built in a few hundred steps with frames between them.
 */
export const PREPARE_STEP_UNITS = 1 << 16;

export class SessionGraphs {
  private config: GraphConfig = { graphPolicy: null, executor: null, graphErrorMode: null };
  private current: LiveGraph | null = null;
  private runs = 0;
  /** The preparation under way (set `abandoned` to drop it). */
  private preparing: { abandoned: boolean } | null = null;

  constructor(private readonly executor: Executor) {}

  get graphConfig(): GraphConfig {
    return { ...this.config };
  }

  configure(patch: GraphConfigPatch): GraphConfig {
    this.config = merge(this.config, patch);
    const set = Object.entries(patch).map(([k, v]) => `${k}: ${v ?? 'document'}`);
    this.executor.record('config', set.join(', '));
    return this.graphConfig;
  }

  /** The run now or last (null before any). */
  get run(): LiveGraph | null {
    return this.current;
  }

  get active(): boolean {
    return this.current !== null && !this.current.finished;
  }

  /**
   * Validates and prepares `raw` (one graph document or a list) in steps between frames, then
   * starts it; rejects, changing nothing, on a bad document, or with `CANCELLED` when a later
   * `start` or a `cancel` abandons it first. A graph already running is cancelled when the new
   * one is ready. `override` applies to this run only.
   */
  async start(
    name: string,
    raw: unknown,
    override: GraphConfigPatch = {},
  ): Promise<GraphRunStarted> {
    this.abandonPreparation();
    const ticket = { abandoned: false };
    this.preparing = ticket;
    const check = () => {
      if (ticket.abandoned) throw abandoned(name);
    };
    let plan: GraphPlan;
    try {
      const steps = planGraphSteps(raw, merge(this.config, override), PREPARE_STEP_UNITS);
      plan = await driveSteps(steps, check);
      check();
    } finally {
      if (this.preparing === ticket) this.preparing = null;
    }
    this.cancel();
    const ex = this.executor;
    const workers = ex.backend.workerCount;
    const jobId = GRAPH_JOB_BASE + ++this.runs;
    const now = () => ex.now();
    const run = new LiveGraph({ name, jobId, plan, workers, now, executor: ex });
    this.current = run;
    ex.record('workload', `graph ${name}: ${plan.executor}, ${plan.policy}`);
    void run.done.then(() => ex.record('workload', `graph ${name} ${run.section().state}`));
    return {
      jobId,
      name,
      executor: plan.executor,
      policy: plan.policy,
      graphs: plan.graphs.length,
      nodes: plan.graphs.reduce((acc, g) => acc + g.nodeCount, 0),
    };
  }

  /** Cancels the running graph and abandons one being prepared. */
  cancel(): void {
    this.abandonPreparation();
    if (this.active) this.current?.cancel();
  }

  private abandonPreparation(): void {
    if (this.preparing !== null) this.preparing.abandoned = true;
    this.preparing = null;
  }

  /** Labels a snapshot's graph spans and adds the latest stealing ones (a late client sees the graph). */
  addRecentSpans(columns: SpanColumns): SpanColumns {
    this.current?.copyRecentSpans(columns);
    return columns;
  }

  /** Labels the frame's graph spans, adds new stealing ones, the graph section and config. */
  decorate(frame: Frame, consume: boolean): Frame {
    const run = this.current;
    if (run !== null && consume) run.drainSpans(frame.spans);
    frame.graph = run?.section() ?? null;
    frame.graphConfig = this.graphConfig;
    return frame;
  }

  async close(): Promise<void> {
    this.cancel();
    await this.current?.done;
  }
}

function abandoned(name: string): SchedLabError {
  return new SchedLabError(
    'CANCELLED',
    `graph "${name}" was abandoned while it was prepared: a later load, preset or cancelAll replaced it`,
  );
}

function merge(config: GraphConfig, patch: GraphConfigPatch): GraphConfig {
  return {
    graphPolicy: patch.graphPolicy === undefined ? config.graphPolicy : patch.graphPolicy,
    executor: patch.executor === undefined ? config.executor : patch.executor,
    graphErrorMode:
      patch.graphErrorMode === undefined ? config.graphErrorMode : patch.graphErrorMode,
  };
}
