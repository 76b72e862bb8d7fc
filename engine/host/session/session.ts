/**
 * A running engine session (DESIGN.md §6): an executor over a backend, the telemetry it feeds and
 * the command surface every host (Electron main, browser-mode server, CLI) drives. Frames are
 * built at `frameHz` — on the wall clock for `threads`, per virtual interval for `sim` (which the
 * live loop advances at `speed` × real time, or `advance()` steps as fast as it can).
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { POLICY_NAMES } from '../../../shared/config.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  HISTORY_SECONDS,
  type CommandResult,
  type Frame,
  type Snapshot,
} from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import { Executor, type ExecutorOptions } from '../../runtime/executor/index.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { splitGraphConfig } from '../graph/graph-config-keys.ts';
import { SessionGraphs } from '../graph/session-graphs.ts';
import { commandId, errorInfo, parseCommand } from './commands.ts';
import { FrameBuilder, type AlarmThresholds } from './frame-builder.ts';
import { SeriesHistory } from './series-history.ts';
import { LatencyStats, type OpenSample } from './stats.ts';
import { runCommand } from './run-command.ts';

export interface WorkloadContext {
  readonly session: Session;
  readonly executor: Executor;
  readonly backend: Backend;
}

/** Supplied by the workloads module: turns a document or a preset name into submitted jobs. */
export interface WorkloadHandler {
  loadWorkload?(doc: unknown, ctx: WorkloadContext): unknown;
  runPreset?(
    name: string,
    options: Record<string, unknown> | undefined,
    ctx: WorkloadContext,
  ): unknown;
}

export interface SessionOptions {
  readonly backend?: Backend;
  readonly config?: EngineConfigPatch;
  readonly frameHz?: number;
  /** Sim only: virtual ms per real ms in the live loop (default 1). */
  readonly speed?: number;
  readonly seed?: number;
  readonly executor?: ExecutorOptions;
  readonly workloads?: WorkloadHandler;
  readonly maxSpansPerFrame?: number;
  readonly maxJobRows?: number;
  readonly alarms?: AlarmThresholds;
}

type FrameListener = (frame: Frame) => void;

/** The seed a session draws from when none is given (the sim, graphs, threads fault injection). */
export const DEFAULT_SEED = 1;

export class Session {
  readonly backend: Backend;
  readonly executor: Executor;
  readonly stats = new LatencyStats();
  readonly frameHz: number;
  speed: number;
  workloads: WorkloadHandler | undefined;
  /** Graph runs (DESIGN.md §3.4): config, the current run, its frames section. */
  readonly graphs: SessionGraphs;
  private readonly frames: FrameBuilder;
  /** The charts' window of frame series, for snapshots. */
  private readonly history: SeriesHistory;
  private readonly listeners: FrameListener[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: SessionOptions = {}) {
    const hz = options.frameHz ?? 10;
    if (!(hz > 0 && hz <= 240))
      throw new SchedLabError('INVALID_CONFIG', 'frameHz must be in (0, 240]', 'frameHz');
    this.frameHz = hz;
    this.history = new SeriesHistory(Math.ceil(HISTORY_SECONDS * hz));
    this.speed = options.speed ?? 1;
    this.backend =
      options.backend ??
      new SimBackend({ workers: options.config?.workers ?? 4, seed: options.seed ?? DEFAULT_SEED });
    const executor = new Executor(this.backend, options.config ?? {}, options.executor);
    this.executor = executor;
    this.workloads = options.workloads;
    this.graphs = new SessionGraphs(this.executor, options.seed ?? DEFAULT_SEED);
    const className = (i: number) => executor.spans.className(i);
    this.frames = new FrameBuilder(this.executor, this.stats, {
      ...options,
      waitsInProgress: () => {
        const open: OpenSample[] = [];
        executor.forEachWaitInProgress((cls, nanos, priority) =>
          open.push({ cls: className(cls), priority, nanos }),
        );
        return open;
      },
      queuedInProgress: () => {
        const open: OpenSample[] = [];
        executor.forEachQueuedInProgress((cls, nanos, priority) =>
          open.push({ cls: className(cls), priority, nanos }),
        );
        return open;
      },
    });
    this.executor.onJobEnd((e) => {
      if (e.state === 'succeeded' || e.state === 'failed') {
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
    this.graphs.sync(this.executor.now());
    const f = this.graphs.decorate(this.frames.next(), true);
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
      frame: this.graphs.decorate(this.frames.peek(), false),
      history: this.history.points(),
      spans,
      events: ex.events.since(0),
      policies: [...POLICY_NAMES],
      frameHz: this.frameHz,
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
    const graphPending = () => this.graphs.run?.pendingEvents ?? 0;
    while (sim.pendingEvents + graphPending() > 0 && out.length < maxFrames) {
      sim.runUntil(sim.now() + this.intervalNanos);
      out.push(this.frame());
    }
    return out;
  }

  /** Live loop on the wall clock: a frame every 1/frameHz s (the sim advances `speed` × that). */
  start(): void {
    if (this.timer !== null) return;
    const period = 1000 / this.frameHz;
    this.timer = setInterval(() => {
      // A graph run pauses the executor; its sim clock still has to move for the graph.
      if (this.backend instanceof SimBackend && (!this.executor.paused || this.graphs.active)) {
        this.backend.runUntil(this.backend.now() + Math.round(period * this.speed * 1e6));
      }
      this.frame();
    }, period);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
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
      const data = await runCommand(this, cmd);
      if (split.graph !== null) data['graphConfig'] = this.graphs.configure(split.graph);
      return withId({ ok: true as const, ...data });
    } catch (e) {
      return withId({ ok: false as const, error: errorInfo(e) });
    }
  }

  async close(): Promise<void> {
    this.stop();
    await this.graphs.close();
    await this.executor.close();
  }

  private requireSim(): SimBackend {
    if (!(this.backend instanceof SimBackend)) {
      throw new SchedLabError('INVALID_ARGUMENT', 'only a sim session can be stepped', 'backend');
    }
    return this.backend;
  }
}
