/**
 * SchedLab as a library: a tenant-fair worker pool for a Node service. `new Scheduler(options)`
 * starts worker threads; `run(task, input, { tenant })` queues one run of a task under the chosen
 * policy and resolves with what it returned. Underneath is the same engine the app runs — one
 * `Executor` over the threads backend — where each run is a job of one split, submitted for its
 * tenant (records.ts `TenantGroup`), so the policies' fairness groups are the service's tenants.
 *
 * Run lifecycle: `queued → running ⇄ queued (it yielded) → succeeded | failed | cancelled`, or
 * `rejected` at once (the bounded queue, `maxQueued`, is full, or the run's tenant has
 * `maxLivePerTenant` runs not ended). Every run's promise settles exactly once: with the result,
 * or with a `SchedLabError` whose code says why (`KERNEL_FAILED`, `WORKER_LOST`, `CANCELLED`,
 * `TIMEOUT`, `QUEUE_FULL`, `ENGINE_CLOSED`, `INVALID_ARGUMENT`).
 */
import type { EngineConfig, EngineConfigPatch, PolicyName } from '../../shared/config.ts';
import { invalidArgument, invalidConfig, SchedLabError } from '../../shared/errors.ts';
import { MAX_MODULE_EXPORTS } from '../../shared/limits.ts';
import type { LevelRow } from '../../shared/protocol.ts';
import { Executor, type JobEnd } from '../runtime/executor/index.ts';
import { ThreadsBackend } from '../runtime/threads/index.ts';
import {
  checkRunOptions,
  closeFlag,
  LIBRARY_DEFAULTS,
  NO_OPTIONS,
  type CheckedRun,
  type RunOptions,
  type SchedulerOptions,
} from './options.ts';
import type { ErrorCause, SplitWork } from '../runtime/backend.ts';
import type { ConsoleOptions, RunningConsole } from './console.ts';
import { aborted, RunWatches } from './run-watch.ts';
import { checkTransferList, isMoved, unwrapMoved } from '../runtime/threads/transfer.ts';
import { taskWork, type Task } from './task.ts';

/** One tenant as `stats()` shows it. */
export interface TenantStats {
  readonly name: string;
  /** Time its runs have run on workers, all quanta summed (ms). */
  readonly scheduledMs: number;
  /** Its runs not ended yet. */
  readonly liveRuns: number;
  /**
   * Its runs rejected at once (`QUEUE_FULL`: its `maxLivePerTenant`, or `maxQueued`) since it was
   * first seen; like `scheduledMs`, it starts again from 0 if the tenant is forgotten while idle.
   */
  readonly rejectedRuns: number;
  /** Its share under `fair` (1 unless `tenantWeights` gave another). */
  readonly weight: number;
}

/** What `stats()` returns: counts since the scheduler started, and the state now. */
export interface SchedulerStats {
  readonly policy: PolicyName;
  readonly workers: number;
  readonly runs: {
    /** Always `succeeded + failed + cancelled + rejected + queued + running`. */
    readonly submitted: number;
    readonly succeeded: number;
    readonly failed: number;
    readonly cancelled: number;
    readonly rejected: number;
    /** Waiting for a worker (new, or back after yielding). */
    readonly queued: number;
    /** On a worker now (a cancelled run whose call has not returned yet is counted cancelled). */
    readonly running: number;
  };
  /** Quanta run so far (a run that yields n times runs n + 1 quanta). */
  readonly quanta: number;
  /** Time workers spent running quanta (ms). */
  readonly busyMs: number;
  /** Tenants with live runs first, then recently idle ones (at most 100). */
  readonly tenants: readonly TenantStats[];
  /** The policy's queues: MLFQ levels, PRIO bands, fair groups or the FIFO (its own unit). */
  readonly levels: readonly LevelRow[];
}

/**
 * A run's promise is settled through its `resolve` function alone, kept by its executor job as
 * the job's `owner` until the job's end event: no record of our own per queued run, and the
 * promise's `reject` function is not kept (a queued run costs one closure, not two, plus an
 * object). A failure resolves it with a promise already rejected with the error, which rejects
 * it with that same error (two microtask turns later).
 */
type Resolve = (value: unknown) => void;

/**
 * `new Promise(takeResolve)` leaves the promise's resolve in `taken`: one executor function for
 * every run, not a closure (and its context) made per run only to hand `resolve` out.
 */
let taken: Resolve | null = null;
function takeResolve(resolve: Resolve): void {
  taken = resolve;
}

const NS_PER_MS = 1e6;

export class Scheduler {
  private readonly backend: ThreadsBackend;
  private readonly executor: Executor;
  private closing = false;
  private closed: Promise<void> | null = null;
  private console: RunningConsole | null = null;
  /** A `serveConsole` call not yet listening. */
  private consoleStarting: Promise<RunningConsole> | null = null;
  /**
   * Runs with a signal or timeout (the others need nothing beside their job). A run cancelled by
   * either has its row say which, as its rejection does (both said `cancelled by request`).
   */
  private readonly watches = new RunWatches((id, why) =>
    this.executor.cancelJob(id, { message: why.message, code: why.code }),
  );

  /** Starts the worker threads (see `ready()`); bad options throw `INVALID_CONFIG`. */
  constructor(options: SchedulerOptions = {}) {
    if (options === null || typeof options !== 'object')
      throw invalidConfig('options', 'must be an object of settings');
    const { resourceLimits, tenantWeights, ...config } = options;
    // A setting given as `undefined` is not given: it keeps the library's default, not the engine's.
    const given = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
    const engine: EngineConfigPatch = { ...LIBRARY_DEFAULTS, ...given };
    this.backend = new ThreadsBackend({
      ...(config.workers === undefined ? {} : { workers: config.workers }),
      ...(resourceLimits === undefined ? {} : { resourceLimits }),
    });
    try {
      this.executor = new Executor(this.backend, engine, { pipeline: true });
      if (tenantWeights !== undefined) this.executor.setTenantWeights(tenantWeights);
    } catch (e) {
      void this.backend.close();
      throw e;
    }
    this.executor.onJobEnd((e) => this.settle(e));
  }

  /** Resolves once every worker has started (runs queued before then wait for it). */
  async ready(): Promise<void> {
    await this.backend.ready();
  }

  /**
   * Runs `task` once with `input`; resolves with its result. `task` is `{ module, export? }` (an
   * absolute path or file URL, as Piscina's `filename`) or a built-in kernel name with input
   * `{ ms }`. Rejects with a `SchedLabError` (see the header for the codes).
   */
  run<R = unknown>(task: Task, input?: unknown, options: RunOptions = NO_OPTIONS): Promise<R> {
    try {
      if (this.closing) {
        throw new SchedLabError('ENGINE_CLOSED', 'the scheduler is closed', 'scheduler');
      }
      const { cls, priority, tenant, signal, timeoutMs, transferList } = checkRunOptions(options);
      const work = isMoved(input)
        ? movedWork(task, input, transferList)
        : withTransfer(taskWork(task, input), transferList);
      if (typeof work.kernel !== 'string' && !this.backend.admitModule(work.kernel)) {
        throw invalidArgument(
          'task',
          `names a module export past the ${MAX_MODULE_EXPORTS} distinct ones a scheduler runs (each stays loaded in every worker)`,
        );
      }
      if (signal?.aborted) throw aborted(signal);
      const promise = new Promise<unknown>(takeResolve) as Promise<R>;
      const resolve = taken;
      taken = null;
      // Checked already: the task by taskWork, the options by checkRunOptions. A run rejected at
      // the door (`maxQueued`) has settled by the time this returns.
      const id = this.executor.submitOneSplit(cls, priority, tenant, work, resolve);
      if (
        (signal !== undefined || timeoutMs !== undefined) &&
        this.executor.jobState(id) === 'running'
      ) {
        this.watches.watch(id, signal, timeoutMs);
      }
      return promise;
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  /** Changes engine settings live (validated first: a bad value changes nothing). */
  configure(patch: EngineConfigPatch): EngineConfig {
    // A patch left out is refused as null is, not taken as an empty one: `configure()` was
    // surely meant to change something.
    return this.executor.configure(patch ?? (null as never));
  }

  get config(): EngineConfig {
    return this.executor.config;
  }

  /**
   * Replaces every tenant's weight under `fair`: those named get theirs (0.01–1000), all others
   * 1. A bad one is `INVALID_ARGUMENT` naming it (`tenantWeights.<tenant>`) and changes nothing.
   */
  setTenantWeights(weights: Readonly<Record<string, number>>): void {
    this.executor.setTenantWeights(weights);
  }

  /** The tenant weights other than 1 now, by name. */
  get tenantWeights(): Record<string, number> {
    return this.executor.tenantWeights;
  }

  stats(): SchedulerStats {
    const c = this.executor.counters;
    // A cancelled run whose call has not returned yet still holds its worker, but it has ended:
    // counted cancelled, not running (and so not taken from the queued ones either). One cancelled
    // while queued behind another's quantum was taken off twice: `running` went to −1.
    const running = c.splitsRunning - this.executor.splitsCancellingOnWorkers;
    return {
      policy: this.executor.policyName,
      workers: this.executor.config.workers,
      runs: {
        submitted: c.submitted,
        succeeded: c.succeeded,
        failed: c.failed,
        cancelled: c.cancelled,
        rejected: c.rejected,
        queued: c.live - running,
        running,
      },
      quanta: c.quanta,
      busyMs: c.busyNanos / NS_PER_MS,
      tenants: this.executor.tenants().map((t) => ({
        name: t.name,
        scheduledMs: t.scheduledNanos / NS_PER_MS,
        liveRuns: t.liveJobs,
        rejectedRuns: t.rejectedJobs,
        weight: t.weight,
      })),
      levels: this.executor.levels(),
    };
  }

  /**
   * Serves the app's telemetry and command protocol for this scheduler on 127.0.0.1, guarded by
   * a token; `schedlab attach <url>` opens the app on it. Read-only unless `allowControl`
   * (console.ts). One console at a time; `close()` of the scheduler closes it too.
   */
  async serveConsole(options: ConsoleOptions = {}): Promise<RunningConsole> {
    if (this.closing) {
      throw new SchedLabError('ENGINE_CLOSED', 'the scheduler is closed', 'scheduler');
    }
    if (this.console !== null || this.consoleStarting !== null) {
      throw new SchedLabError('INVALID_ARGUMENT', 'a console is already served', 'serveConsole');
    }
    // Until it listens, a second call is refused and `close()` waits for it.
    const starting = this.startConsole(options);
    this.consoleStarting = starting;
    try {
      return await starting;
    } finally {
      this.consoleStarting = null;
    }
  }

  private async startConsole(options: ConsoleOptions): Promise<RunningConsole> {
    // Loaded on first use: the console's server, session and renderer build are not a cost of
    // `import { Scheduler } from 'schedlab'` for a service that never serves it.
    const { serveSchedulerConsole } = await import('./console.ts');
    const running = await serveSchedulerConsole(this.executor, options);
    if (this.closing) {
      await running.close();
      throw new SchedLabError(
        'ENGINE_CLOSED',
        'the scheduler was closed while its console started',
        'scheduler',
      );
    }
    const served: RunningConsole = {
      url: running.url,
      port: running.port,
      token: running.token,
      close: async () => {
        if (this.console === served) this.console = null;
        await running.close();
      },
    };
    this.console = served;
    return served;
  }

  /**
   * Stops taking runs (`run` rejects with `ENGINE_CLOSED`), then by default waits for every run
   * to end; with `{ cancel: true }` cancels them instead (they reject with `ENGINE_CLOSED`). Then
   * stops the console and the workers. Later calls return the first call's promise; one with
   * `{ cancel: true }` during a draining close cancels what is still live (a shutdown that
   * drains first and cancels on a deadline, as Piscina's `close()` then `destroy()`: it hung).
   */
  close(options: { readonly cancel?: boolean } = {}): Promise<void> {
    let cancel: boolean;
    try {
      cancel = closeFlag(options, 'cancel');
    } catch (e) {
      return Promise.reject(e as Error); // nothing changed: a typo must not half-close it
    }
    this.closing = true;
    if (this.closed === null) return (this.closed = this.shutdown(cancel));
    // The executor's close cancels every live run and lets the draining shutdown go on.
    // Not awaited: the promise returned is the draining shutdown's, which goes on once this has
    // cancelled every run (a backend that fails to close leaves the caller nothing to do).
    if (cancel) this.executor.close().catch(() => undefined);
    return this.closed;
  }

  private async shutdown(cancel: boolean): Promise<void> {
    if (!cancel) await this.executor.drain();
    await this.consoleStarting?.catch(() => undefined); // it sees `closing` and closes itself
    await this.console?.close();
    await this.executor.close();
  }

  private settle(end: JobEnd): void {
    // A job without an owner was submitted by the console, not by `run`.
    if (typeof end.owner !== 'function') return;
    const resolve = end.owner as Resolve;
    const reason = this.watches.size > 0 ? this.watches.end(end.jobId) : undefined;
    if (end.state === 'succeeded') resolve(end.result);
    else resolve(Promise.reject(reason ?? this.failure(end)));
  }

  private failure(end: JobEnd): SchedLabError {
    const why = end.error ?? end.state;
    if (end.state === 'rejected') {
      const limit = end.rejectedBy ?? 'maxQueued';
      return new SchedLabError('QUEUE_FULL', `the run was rejected: ${why}`, limit);
    }
    if (end.state === 'cancelled') {
      return this.closing
        ? new SchedLabError('ENGINE_CLOSED', 'the scheduler closed before the run ended')
        : new SchedLabError('CANCELLED', `the run was cancelled: ${why}`);
    }
    // A run is a job of one split: which split failed says nothing to the service.
    const reason = end.splitError ?? why;
    const error = new SchedLabError(end.errorCode ?? 'KERNEL_FAILED', `the run failed: ${reason}`);
    if (end.cause !== undefined) error.cause = rebuilt(end.cause);
    return error;
  }
}

/**
 * The work of a run whose input Piscina's `move(value)` (or `ctx.move`) wrapped: its value, moving
 * what the wrapper names, checked as `transferList` is. Structured clone keeps none of the
 * wrapper's symbol keys: the task got `{}` and the buffer stayed with the caller, without a word.
 */
function movedWork(task: Task, input: unknown, transferList: CheckedRun['transferList']) {
  const { value, transfer } = unwrapMoved(input);
  const all = [...(transferList ?? []), ...(transfer ?? [])];
  checkTransferList(all);
  return withTransfer(taskWork(task, value), all);
}

/**
 * A module task's work that moves `transferList` with its input (a copy of the list: the caller
 * may reuse its array). A built-in kernel has nothing to move.
 */
function withTransfer(work: SplitWork, transferList: CheckedRun['transferList']): SplitWork {
  if (transferList === undefined || transferList.length === 0) return work;
  if (typeof work.kernel === 'string') {
    throw new SchedLabError(
      'INVALID_ARGUMENT',
      'transferList is for module tasks (a built-in kernel takes { ms })',
      'transferList',
    );
  }
  return { ...work, transfer: transferList }; // checkRunOptions's copy
}

/** What the task threw, rebuilt on this thread: its name, message, stack and `code`. */
function rebuilt(cause: ErrorCause): Error {
  const error = new Error(cause.message);
  error.name = cause.name;
  if (cause.stack !== undefined) error.stack = cause.stack;
  if (cause.code !== undefined) (error as Error & { code?: string | number }).code = cause.code;
  return error;
}
