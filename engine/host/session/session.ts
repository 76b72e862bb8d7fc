/**
 * A running engine session (docs/design.md §6): an executor over a backend, the telemetry it feeds and
 * the command surface every host (Electron main, browser-mode server, CLI) drives. Frames are
 * built at `frameHz` — on the wall clock for `threads`, per virtual interval for `sim` (which the
 * live loop advances at `speed` × real time, or `advance()` steps as fast as it can).
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { POLICY_NAMES } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  GRAPH_FRAME_MAX_EDGES,
  HISTORY_SECONDS,
  type CommandResult,
  type Frame,
  type Snapshot,
} from '../../../shared/protocol.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { PRESET_INFOS } from '../../core/workload/presets/index.ts';
import type { Backend } from '../../runtime/backend.ts';
import { Executor, type ExecutorOptions } from '../../runtime/executor/index.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { splitGraphConfig } from '../graph/graph-config-keys.ts';
import { SessionGraphs } from '../graph/session-graphs.ts';
import { commandId, errorInfo, parseCommand } from './parse-command.ts';
import { FrameBuilder, type AlarmThresholds } from './frame-builder.ts';
import { SeriesHistory } from './series-history.ts';
import { LatencyStats } from './stats.ts';
import { CommandRunner } from './run-command.ts';
import type { WorkloadHandler } from './workload-handler.ts';

export type { WorkloadContext, WorkloadHandler } from './workload-handler.ts';

export interface SessionOptions {
  readonly backend?: Backend;
  /**
   * An executor already running (the library's `Scheduler`, engine/lib): the session adopts it
   * and its backend instead of making its own; `config`, `backend` and `executor` options are
   * then unused. Its waits and latencies are counted from the session's start.
   */
  readonly adopt?: Executor;
  readonly config?: EngineConfigPatch;
  readonly frameHz?: number;
  /** Sim only: virtual ms per real ms in the live loop (default 1), or `max`. */
  readonly speed?: number | 'max';
  readonly seed?: number;
  readonly executor?: ExecutorOptions;
  readonly workloads?: WorkloadHandler;
  readonly maxSpansPerFrame?: number;
  readonly maxJobRows?: number;
  readonly alarms?: AlarmThresholds;
}

type FrameListener = (frame: Frame) => void;

/** `[graph, from, to]` per edge of a run's graphs, or null past `GRAPH_FRAME_MAX_EDGES`. */
function graphEdges(graphs: readonly CompiledGraph[]): [number, number, number][] | null {
  if (graphs.reduce((n, g) => n + g.edgeCount, 0) > GRAPH_FRAME_MAX_EDGES) return null;
  const edges: [number, number, number][] = [];
  graphs.forEach((g, i) => {
    for (let v = 0; v < g.nodeCount; v++) {
      for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
        edges.push([i, v, g.successors[k]!]);
      }
    }
  });
  return edges;
}

/**
 * Wall time (ms) the sim runs at `max` speed before the event loop takes its turn: short enough
 * that frames, commands and sockets wait at most this long, long enough that the turns cost
 * little next to it.
 */
const MAX_SLICE_MS = 8;

/**
 * Wall time (ms) one tick of the paced live loop may run the sim (a tick comes every 100 ms at
 * 10 frames/s): a load too heavy for the pace falls behind it instead of holding the event loop,
 * so frames and commands keep their turns.
 */
const LIVE_TICK_BUDGET_MS = 100;
/** Events the sim runs between two looks at the wall clock (≈ 1–5 ms of them). */
const EVENTS_PER_LOOK = 2048;

/** The seed a session draws from when none is given (the sim, graphs, threads fault injection). */
export const DEFAULT_SEED = 1;

/** The most frames a second a session sends. */
export const MAX_FRAME_HZ = 240;

export class Session {
  readonly backend: Backend;
  readonly executor: Executor;
  readonly stats = new LatencyStats();
  readonly frameHz: number;
  speed: number | 'max';
  workloads: WorkloadHandler | undefined;
  /** Graph runs (docs/design.md §3.4): config, the current run, its frames section. */
  readonly graphs: SessionGraphs;
  private readonly frames: FrameBuilder;
  /** The charts' window of frame series, for snapshots. */
  private readonly history: SeriesHistory;
  private readonly listeners: FrameListener[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly commands: CommandRunner;
  /** The `max` speed loop is running (`pumpMax`). */
  private pumping = false;
  /** The current graph run's edges, worked out once per run (null: too many for frames). */
  private edges: { run: object; edges: [number, number, number][] | null } | null = null;

  constructor(options: SessionOptions = {}) {
    const hz = options.frameHz ?? 10;
    if (!(hz > 0 && hz <= MAX_FRAME_HZ))
      throw new SchedLabError(
        'INVALID_CONFIG',
        `frameHz must be in (0, ${MAX_FRAME_HZ}]`,
        'frameHz',
      );
    this.frameHz = hz;
    this.history = new SeriesHistory(Math.ceil(HISTORY_SECONDS * hz));
    this.speed = options.speed ?? 1;
    this.backend =
      options.adopt?.backend ??
      options.backend ??
      new SimBackend({ workers: options.config?.workers ?? 4, seed: options.seed ?? DEFAULT_SEED });
    const executor =
      options.adopt ?? new Executor(this.backend, options.config ?? {}, options.executor);
    this.executor = executor;
    this.workloads = options.workloads;
    this.graphs = new SessionGraphs(this.executor);
    this.commands = new CommandRunner(this);
    const className = (i: number) => executor.spans.className(i);
    const { speed: _speed, ...frameOptions } = options;
    this.frames = new FrameBuilder(this.executor, this.stats, {
      ...frameOptions,
      ...(this.backend instanceof SimBackend ? { speed: () => this.speed } : {}),
    });
    this.executor.onJobEnd((e) => {
      // Succeeded jobs only, as a headless report's latency (report/class-stats.ts).
      if (e.state === 'succeeded') {
        this.stats.latency.record(e.class, e.basePriority, e.endNanos - e.submitNanos);
      }
    });
    // Each wait as it ends, like a headless report (report/collector.ts); open ones at frame time.
    executor.onDispatchWait((cls, nanos, priority) =>
      this.stats.wait.record(className(cls), priority, nanos),
    );
    executor.onAdmissionQueued((cls, nanos, priority) =>
      this.stats.queued.record(className(cls), priority, nanos),
    );
  }

  /** The starvation bound of the alarm and the `starving` warning (ms). */
  get starvationMs(): number {
    return this.frames.starvationMs;
  }

  /** Spans a frame carries (the `HostSession` contract of the transports). */
  spanCount(frame: Frame): number {
    return frame.spans.count;
  }

  /** Frame interval in backend ns. */
  get intervalNanos(): number {
    return Math.round(1e9 / this.frameHz);
  }

  onFrame(fn: FrameListener): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Builds the next frame (spans and events since the previous one) and hands it to listeners. */
  frame(): Frame {
    const f = this.withEdges(this.graphs.decorate(this.frames.next(), true));
    this.history.push(f);
    for (const fn of this.listeners) fn(f);
    return f;
  }

  /** What a new or reconnecting client gets first: state now, plus every span the ring holds. */
  snapshot(): Snapshot {
    const ex = this.executor;
    const spans = this.graphs.addRecentSpans(ex.spans.read(0).columns);
    return {
      type: 'snapshot',
      frame: this.withEdges(this.graphs.decorate(this.frames.peek(), false)),
      history: this.history.points(),
      spans,
      events: ex.events.since(0),
      policies: [...POLICY_NAMES],
      frameHz: this.frameHz,
      // Only a host that runs presets offers them (`runPreset` answers UNKNOWN_PRESET elsewhere).
      presets: this.workloads?.runPreset ? PRESET_INFOS.map((p) => ({ ...p })) : [],
    };
  }

  /** Sim only: advances virtual time by `ms`, one frame per interval. Returns those frames. */
  advance(ms: number): Frame[] {
    const sim = this.requireSim();
    const end = sim.now() + Math.round(ms * 1e6);
    const out: Frame[] = [];
    while (sim.now() < end) {
      sim.runUntil(Math.min(end, sim.now() + this.intervalNanos));
      out.push(this.frame());
    }
    return out;
  }

  /** Sim only: runs until nothing is pending, one frame per virtual interval. */
  runToIdle(maxFrames = 1_000_000): Frame[] {
    const sim = this.requireSim();
    const out: Frame[] = [];
    while (sim.pendingEvents > 0 && out.length < maxFrames) {
      sim.runUntil(sim.now() + this.intervalNanos);
      out.push(this.frame());
    }
    return out;
  }

  /** Live loop on the wall clock: a frame every 1/frameHz s (the sim advances `speed` × that). */
  start(): void {
    if (this.timer !== null) return;
    // Frames read the waits in progress at every pass: from columns kept as splits move.
    this.executor.keepWaitingIndex(true);
    const period = 1000 / this.frameHz;
    this.timer = setInterval(() => {
      const sim = this.liveSim();
      if (sim !== null) {
        if (this.speed === 'max') this.pumpMax(sim);
        else runFor(sim, sim.now() + Math.round(period * this.speed * 1e6), LIVE_TICK_BUDGET_MS);
      }
      this.frame();
    }, period);
    this.timer.unref?.();
  }

  /**
   * The sim while the live loop should move it (a stealing graph runs on its own threads): null
   * on threads or when paused.
   */
  private liveSim(): SimBackend | null {
    if (!(this.backend instanceof SimBackend)) return null;
    return this.executor.paused ? null : this.backend;
  }

  /**
   * `max`: the sim runs in slices of `MAX_SLICE_MS` of wall time, one per turn of the event loop
   * (`setImmediate`), so it has all the time the host does not need: frames (the interval above)
   * and commands and sockets (I/O) each get their turn between two slices. It stops when the
   * speed changes, the session stops, or nothing is pending; the next frame tick restarts it.
   */
  private pumpMax(sim: SimBackend): void {
    if (this.pumping) return;
    this.pumping = true;
    const slice = () => {
      if (this.timer === null || this.speed !== 'max' || this.liveSim() !== sim) {
        this.pumping = false;
        return;
      }
      const until = performance.now() + MAX_SLICE_MS;
      while (sim.pendingEvents > 0) {
        sim.runUntil(sim.now() + this.intervalNanos, EVENTS_PER_LOOK);
        if (performance.now() >= until) break;
      }
      if (sim.pendingEvents === 0) this.pumping = false;
      else setImmediate(slice);
    };
    setImmediate(slice);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.executor.keepWaitingIndex(false);
  }

  get running(): boolean {
    return this.timer !== null;
  }

  /** Validates and applies one command; never throws. */
  async handleCommand(msg: unknown): Promise<CommandResult> {
    const id = commandId(msg);
    const withId = <T extends object>(r: T): T => (id === undefined ? r : { ...r, id });
    try {
      // `configure` may carry the graph knobs too (checked first: a bad value changes nothing).
      const split = splitGraphConfig(msg);
      const cmd = parseCommand(split.message);
      const data = await this.commands.run(cmd);
      if (split.graph === null) return withId({ ok: true as const, ...data });
      return withId({
        ok: true as const,
        ...data,
        graphConfig: this.graphs.configure(split.graph),
      });
    } catch (e) {
      return withId({ ok: false as const, error: errorInfo(e) });
    }
  }

  async close(): Promise<void> {
    this.stop();
    // The executor first: a graph node cancelled mid-quantum holds its run open until that
    // quantum is back, and with the sim no longer driven it comes back only as the close ends it.
    this.graphs.cancel();
    await this.executor.close();
    await this.graphs.close();
  }

  /** The graph run's edges on its frames while they are few (`GraphFrame.edges`). */
  private withEdges(frame: Frame): Frame {
    const run = this.graphs.run;
    if (frame.graph == null || run === null) return frame;
    if (this.edges?.run !== run) this.edges = { run, edges: graphEdges(run.plan.graphs) };
    if (this.edges.edges !== null) frame.graph.edges = this.edges.edges;
    return frame;
  }

  private requireSim(): SimBackend {
    if (!(this.backend instanceof SimBackend)) {
      throw new SchedLabError('INVALID_ARGUMENT', 'only a sim session can be stepped', 'backend');
    }
    return this.backend;
  }
}

/** Runs `sim` toward virtual time `t` for at most `budgetMs` of wall time; true when it got there. */
function runFor(sim: SimBackend, t: number, budgetMs: number): boolean {
  const until = performance.now() + budgetMs;
  while (!sim.runUntil(t, EVENTS_PER_LOOK)) {
    if (performance.now() >= until) return false;
  }
  return true;
}
