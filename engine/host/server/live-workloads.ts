/**
 * Presets and workload documents run live inside an app session (the `runPreset` and
 * `loadWorkload` commands): the workload's engine config is applied, then its job classes (and
 * Trino controller) submit jobs on the session's backend clock, exactly as `schedlab run` does
 * headless. Starting a workload stops the previous one's arrivals; jobs already submitted run on.
 *
 * With `loop`, a workload that has submitted everything and drained starts over, so an app left
 * open keeps showing a live scheduler rather than an idle one. With `cores`, a preset that asks
 * for more threads workers than the machine has cores is fitted to it (`fit-to-machine.ts`).
 *
 * Graph workloads (a preset or document with `graph`, or a bare graph document) run through the
 * session's graph runner (`Session.graphs`, engine/host/graph): the session's arrivals stop and
 * the graph runs as jobs of the session's executor (a `stealing` one on its own pool); nothing is
 * paused. `runPreset` options may carry
 * `graphPolicy`, `executor` and `graphErrorMode` for that run. Starting any workload cancels a
 * graph still running. A document naming a user module runs only when the module lies in one of
 * the `modules` directories the operator allowed (engine/host/report/user-modules.ts).
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import { graphConfigPatchSchema, type WorkloadStarted } from '../../../shared/protocol.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { prefixField } from '../../../shared/schema-error.ts';
import { parseWorkload, type Workload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import { mergeConfig, zodToError } from '../../runtime/executor/index.ts';
import { ClassDriver } from '../../runtime/workload/class-driver.ts';
import { TrinoController } from '../../runtime/workload/trino-controller.ts';
import { workloadPatch } from '../report/resolve-config.ts';
import { checkJobModules, checkModules } from '../report/user-modules.ts';
import { isGraphDocument } from '../graph/graph-docs.ts';
import { fitToMachine } from './fit-to-machine.ts';
import type { WorkloadContext, WorkloadHandler } from '../session/index.ts';

/** How often a looping workload checks whether it has drained (ms). */
const LOOP_CHECK_MS = 500;

interface Running {
  readonly name: string;
  stop(): void;
}

export interface LiveWorkloads extends WorkloadHandler {
  /** The workload running now, if any. */
  readonly current: string | null;
  /** Stops arrivals (and looping); submitted jobs are left to the executor. */
  stop(): void;
}

export interface LiveWorkloadOptions {
  /** Starts a drained workload over (the live app), so the scheduler never goes idle. */
  readonly loop?: boolean;
  /**
   * The machine's cores: on threads, a preset that asks for more workers is fitted to them
   * (`fitToMachine`). Unset, presets run as written.
   */
  readonly cores?: number;
  readonly log?: (line: string) => void;
  /**
   * Draws each workload's jobs from this seed (round r from `seed + r`) instead of the
   * workload's own, as `schedlab run --seed` does: a seeded sim session replays that run.
   */
  readonly seed?: number;
  /**
   * Directories (real paths, see `allowedDirs`) user modules may load from; none by default, so a
   * document naming a module is refused with `MODULE_NOT_ALLOWED`.
   */
  readonly modules?: readonly string[];
}

/**
 * A workload's settings for the engine, checked before the engine is touched: a bad document
 * changes nothing, its settings with the engine's too (a guarantee over the engine's driver limit
 * used to stop the running workload, then be refused).
 */
function checkedPatch(workload: Workload, ctx: WorkloadContext): EngineConfigPatch {
  const patch = workloadPatch(workload, ctx.backend.kind);
  try {
    mergeConfig(ctx.executor.config, patch);
  } catch (e) {
    throw e instanceof SchedLabError && e.field !== undefined ? prefixField(e, ['config']) : e;
  }
  return patch;
}

export function liveWorkloads(options: LiveWorkloadOptions = {}): LiveWorkloads {
  let running: Running | null = null;

  // The graph is prepared between frames (engine/host/graph/session-graphs.ts): the workload
  // running now runs on until the graph is ready, and a bad graph leaves it untouched.
  const startGraph = async (
    name: string,
    graph: unknown,
    ctx: WorkloadContext,
    options?: Record<string, unknown>,
  ) => {
    const override = graphConfigPatchSchema.safeParse(options ?? {});
    if (!override.success) throw zodToError(override.error, 'INVALID_ARGUMENT');
    const started = await ctx.graphs.start(name, graph, override.data);
    running?.stop();
    running = null;
    return { workload: name, graph: started };
  };

  const start = async (
    workload: Workload,
    ctx: WorkloadContext,
    extra?: Record<string, unknown>,
  ): Promise<WorkloadStarted> => {
    if (workload.graph !== undefined) {
      // Its settings too, as `schedlab run` takes them (diamond's two workers): once the graph is
      // ready, so a bad graph changes nothing. They were dropped, silently.
      const patch = checkedPatch(workload, ctx);
      try {
        const started = await startGraph(workload.name, workload.graph, ctx, extra);
        ctx.executor.configure(patch);
        return started;
      } catch (e) {
        // One document is checked as if bare; in a workload it sits under `graph` (a list's
        // entries are already named `graph[i]`). An abandoned preparation names no field.
        if (!(e instanceof SchedLabError) || Array.isArray(workload.graph)) throw e;
        if (e.code === 'INVALID_ARGUMENT' || e.code === 'CANCELLED') throw e;
        throw prefixField(e, ['graph']);
      }
    }
    // Options are a graph's settings (`graphConfigPatchSchema`): another preset takes none, and
    // one given was ignored where a graph preset refused it.
    const given = Object.keys(extra ?? {});
    if (given.length > 0) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `options has unknown field ${given[0]}: only a graph preset takes options`,
        `options.${given[0]}`,
      );
    }
    const patch = checkedPatch(workload, ctx);
    running?.stop();
    ctx.graphs.cancel();
    ctx.executor.configure(patch);
    if (workload.tenantWeights !== undefined) ctx.executor.setTenantWeights(workload.tenantWeights);
    running = runLive(workload, ctx, options.loop === true, options.seed ?? workload.seed);
    return { workload: workload.name };
  };

  /** Module exports submitted jobs named that loaded: probed once, not at every job. */
  const probed = new Set<string>();
  return {
    get current() {
      return running?.name ?? null;
    },
    runPreset: async (name, extra, ctx) => {
      const preset = loadPreset(name);
      if (ctx.backend.kind !== 'threads' || options.cores === undefined) {
        return start(preset, ctx, extra);
      }
      const { workload, note } = fitToMachine(preset, options.cores);
      const started = await start(workload, ctx, extra);
      if (note === null) return started;
      options.log?.(note);
      return { ...started, fitted: note };
    },
    loadWorkload: async (doc, ctx) => {
      const dirs = options.modules ?? [];
      if (isGraphDocument(doc))
        return startGraph('graph', await checkModules(doc, ctx.backend.kind, dirs), ctx);
      return start(await checkModules(parseWorkload(doc), ctx.backend.kind, dirs), ctx);
    },
    stop: () => {
      running?.stop();
      running = null;
    },
    checkJob: (job, ctx) => checkJobModules(job, ctx.backend.kind, options.modules ?? [], probed),
  };
}

function runLive(workload: Workload, ctx: WorkloadContext, loop: boolean, seed: number): Running {
  const { executor, backend } = ctx;
  const scale = backend.kind === 'threads' ? workload.timeScale : 1;
  let round = 0;
  let classes: ClassDriver | null = null;
  let trino: TrinoController | null = null;
  let stopped = false;
  let check: (() => void) | null = null;

  const begin = () => {
    const origin = backend.now();
    // Each round draws fresh jobs (seed + round), reproducible from the seed.
    const rng = createRng(seed + round++);
    classes = new ClassDriver(executor, workload.classes ?? [], rng, {
      originNanos: origin,
      scale,
      untilNanos: Infinity,
    });
    trino = workload.trino
      ? new TrinoController(executor, workload.trino, rng, { originNanos: origin, scale })
      : null;
    classes.start();
    trino?.start();
  };

  // Trino controllers run until stopped; class arrivals end, and then the round can repeat.
  const watch = () => {
    if (stopped || !loop || trino !== null) return;
    check = backend.setTimer(backend.now() + LOOP_CHECK_MS * 1e6, () => {
      check = null;
      if (stopped) return;
      if (classes?.finished === true && executor.counters.live === 0) begin();
      watch();
    });
  };

  begin();
  watch();
  return {
    name: workload.name,
    stop: () => {
      stopped = true;
      check?.();
      classes?.stop();
      trino?.stop();
    },
  };
}
