/**
 * Presets and workload documents run live inside an app session (the `runPreset` and
 * `loadWorkload` commands): the workload's engine config is applied, then its job classes (and
 * Trino controller) submit jobs on the session's backend clock, exactly as `schedlab run` does
 * headless. Starting a workload stops the previous one's arrivals; jobs already submitted run on.
 *
 * With `loop`, a workload that has submitted everything and drained starts over, so an app left
 * open keeps showing a live scheduler rather than an idle one.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { parseWorkload, type Workload } from '../../../shared/workload.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { createRng } from '../../core/workload/rng.ts';
import { ClassDriver } from '../../runtime/workload/class-driver.ts';
import { TrinoController } from '../../runtime/workload/trino-controller.ts';
import { checkConfigPatch } from '../report/resolve-config.ts';
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

export function liveWorkloads(options: { loop?: boolean } = {}): LiveWorkloads {
  let running: Running | null = null;

  const start = (workload: Workload, ctx: WorkloadContext) => {
    if (workload.graph !== undefined) {
      throw new SchedLabError(
        'INVALID_WORKLOAD',
        `graph: ${workload.name} is a graph workload; graphs cannot run live in the app yet`,
        'graph',
      );
    }
    // Validate before touching the engine: a bad document changes nothing.
    const patch = {
      ...checkConfigPatch(workload.config, ['config']),
      ...(ctx.backend.kind === 'threads' ? checkConfigPatch(workload.threads, ['threads']) : {}),
    };
    running?.stop();
    ctx.executor.configure(patch);
    running = runLive(workload, ctx, options.loop === true);
    return { workload: workload.name };
  };

  return {
    get current() {
      return running?.name ?? null;
    },
    runPreset: (name, _options, ctx) => start(loadPreset(name), ctx),
    loadWorkload: (doc, ctx) => start(parseWorkload(doc), ctx),
    stop: () => {
      running?.stop();
      running = null;
    },
  };
}

function runLive(workload: Workload, ctx: WorkloadContext, loop: boolean): Running {
  const { executor, backend } = ctx;
  const scale = backend.kind === 'threads' ? workload.timeScale : 1;
  let round = 0;
  let classes: ClassDriver | null = null;
  let trino: TrinoController | null = null;
  let stopped = false;
  let check: (() => void) | null = null;

  const begin = () => {
    const origin = backend.now();
    // Each round draws fresh jobs (seed + round), reproducible from the workload's seed.
    const rng = createRng(workload.seed + round++);
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
