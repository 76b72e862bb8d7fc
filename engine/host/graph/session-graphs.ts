/**
 * The graph side of a live session: the graph config (`configureGraph`), the current (or last)
 * graph run, and how it shares the session's workers — while a graph runs, the session's
 * executor is paused (its running quanta finish, nothing new starts) and the graph gets its own
 * backend or stealing pool with as many workers as the session has; when the graph ends the
 * executor resumes if a graph run paused it. A user's `resume` during a graph run lets both run,
 * sharing the cores; a user's `pause` before the run is left alone.
 */
import type {
  Frame,
  GraphConfig,
  GraphConfigPatch,
  SpanColumns,
} from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import type { Executor } from '../../runtime/executor/index.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { ThreadsBackend } from '../../runtime/threads/index.ts';
import { planGraphs } from './graph-docs.ts';
import { LiveGraph } from './live-graph.ts';

/** Graph runs' job ids start here, clear of the executor's. */
export const GRAPH_JOB_BASE = 1_000_000_000;

export interface GraphRunStarted {
  readonly jobId: number;
  readonly name: string;
  readonly executor: string;
  readonly policy: string;
  readonly graphs: number;
  readonly nodes: number;
}

export class SessionGraphs {
  private config: GraphConfig = { graphPolicy: null, executor: null, graphErrorMode: null };
  private current: LiveGraph | null = null;
  private runs = 0;
  /** The executor was paused by a graph run (and is resumed when the last one ends). */
  private pausedForGraph = false;

  constructor(
    private readonly executor: Executor,
    private readonly seed: number,
  ) {}

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
   * Validates `raw` (one graph document or a list) and starts it; throws, changing nothing, on a
   * bad document. A graph already running is cancelled first. `override` applies to this run only.
   */
  start(name: string, raw: unknown, override: GraphConfigPatch = {}): GraphRunStarted {
    const plan = planGraphs(raw, merge(this.config, override));
    this.cancel();
    const ex = this.executor;
    const workers = ex.backend.workerCount;
    if (!ex.paused) {
      ex.pause();
      this.pausedForGraph = true;
    }
    const jobId = GRAPH_JOB_BASE + ++this.runs;
    const kind = ex.backend.kind;
    const seed = this.seed + this.runs;
    const backend = (): Backend =>
      kind === 'sim' ? new SimBackend({ workers, seed }) : new ThreadsBackend({ workers, seed });
    const now = () => ex.now();
    const run = new LiveGraph({ name, jobId, plan, workers, now, backend });
    this.current = run;
    ex.record('workload', `graph ${name}: ${plan.executor}, ${plan.policy}`);
    void run.done.then(() => {
      ex.record('workload', `graph ${name} ${run.section().state}`);
      if (this.current !== run || !this.pausedForGraph) return;
      this.pausedForGraph = false;
      if (ex.paused) ex.resume();
    });
    return {
      jobId,
      name,
      executor: plan.executor,
      policy: plan.policy,
      graphs: plan.graphs.length,
      nodes: plan.graphs.reduce((acc, g) => acc + g.nodeCount, 0),
    };
  }

  cancel(): void {
    if (this.active) this.current?.cancel();
  }

  /** Sim sessions: steps the graph's backend to the session's time. */
  sync(nowNanos: number): void {
    this.current?.sync(nowNanos);
  }

  /** Adds the latest graph spans to a snapshot's spans (a late client still sees the graph). */
  addRecentSpans(columns: SpanColumns): SpanColumns {
    this.current?.copyRecentSpans(columns);
    return columns;
  }

  /** Adds the graph's new spans, its section and the graph config to a frame. */
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

function merge(config: GraphConfig, patch: GraphConfigPatch): GraphConfig {
  return {
    graphPolicy: patch.graphPolicy === undefined ? config.graphPolicy : patch.graphPolicy,
    executor: patch.executor === undefined ? config.executor : patch.executor,
    graphErrorMode:
      patch.graphErrorMode === undefined ? config.graphErrorMode : patch.graphErrorMode,
  };
}
