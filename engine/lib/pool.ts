/**
 * A Piscina-shaped front for `Scheduler`, so moving a service over is one import and a tenant:
 *
 *     import { Piscina } from 'piscina';            →  import { Pool as Piscina } from 'schedlab';
 *     new Piscina({ filename, maxThreads: 4 })       (unchanged; add `policy` if not mlfq)
 *     await pool.run(input, { name: 'resize' })      →  await pool.run(input, { name: 'resize', tenant })
 *
 * Only Piscina's common surface: `filename`, `name`, `maxThreads`, `maxQueue`, `run(input, {
 * name, signal, transferList })` (an input wrapped by Piscina's `move` moves), `queueSize`,
 * `destroy()`, `close({ force })`. Runs reject with `SchedLabError`s (an abort is
 * `CANCELLED`, not Piscina's `AbortError`; a full queue is `QUEUE_FULL`).
 */
import { availableParallelism } from 'node:os';
import { engineConfigShape } from '../../shared/config.ts';
import { invalidArgument, SchedLabError } from '../../shared/errors.ts';
import { reason } from '../runtime/threads/quantum-runner.ts';
import { closeFlag, type RunOptions, type SchedulerOptions } from './options.ts';
import { Scheduler } from './scheduler.ts';
import { checkExportName, moduleHref } from './task.ts';

export interface PoolOptions extends SchedulerOptions {
  /** The task module: an absolute path or a file URL (Piscina's `filename`). */
  readonly filename: string | URL;
  /** Worker threads (Piscina's `maxThreads`); `workers` means the same and wins. */
  readonly maxThreads?: number;
  /** Accepted for Piscina compatibility and ignored: the pool keeps `maxThreads` running. */
  readonly minThreads?: number;
  /** Accepted for Piscina compatibility and ignored, as `minThreads`. */
  readonly idleTimeout?: number;
  /**
   * Runs waiting before new ones are rejected (Piscina's `maxQueue`; `QUEUE_FULL`): a number, or
   * `'auto'` for the square of the thread count, as Piscina. `maxQueued` means the same and wins.
   */
  readonly maxQueue?: number | 'auto';
  /** The export a run calls when it names none (Piscina's `name`); default `default`. */
  readonly name?: string;
}

export interface PoolRunOptions extends RunOptions {
  /** The export to call (Piscina's `name`); default `default`. */
  readonly name?: string;
}

export class Pool {
  /** The scheduler underneath: `configure`, `stats`, `serveConsole`. */
  readonly scheduler: Scheduler;
  private readonly filename: string | URL;
  private readonly defaultName: string | undefined;
  /** The queue bound came from Piscina's `maxQueue`: a full queue's refusal names that. */
  private readonly boundByMaxQueue: boolean;

  constructor(options: PoolOptions) {
    const {
      filename,
      maxThreads,
      maxQueue,
      name: defaultName,
      minThreads: _minThreads,
      idleTimeout: _idleTimeout,
      ...rest
    } = options ?? {};
    // Checked now, as Piscina's own constructor would fail on it: not at every run.
    moduleHref(filename, 'filename');
    this.filename = filename as string | URL;
    checkExportName(defaultName, 'name');
    this.defaultName = defaultName;
    const workers = rest.workers ?? maxThreads;
    const settings: SchedulerOptions = workers === undefined ? rest : { ...rest, workers };
    const bound = queueBound(maxQueue, workers);
    const maxQueued = rest.maxQueued ?? bound;
    this.boundByMaxQueue = rest.maxQueued === undefined && bound !== undefined;
    try {
      this.scheduler = new Scheduler(
        maxQueued === undefined ? settings : { ...settings, maxQueued },
      );
    } catch (e) {
      // The caller said `maxThreads`: name what they wrote, not what it became.
      if (e instanceof SchedLabError && e.field === 'workers' && rest.workers === undefined) {
        throw new SchedLabError(e.code, e.message.replace(/^workers/, 'maxThreads'), 'maxThreads');
      }
      throw e;
    }
  }

  /** Runs waiting for a worker now (Piscina's `queueSize`). */
  get queueSize(): number {
    return this.scheduler.stats().runs.queued;
  }

  run<R = unknown>(input?: unknown, options: PoolRunOptions = {}): Promise<R> {
    // Options that are no object (`null`, a string) are `scheduler.run`'s to refuse, as a
    // rejection naming `options`, not a TypeError thrown here by taking them apart.
    if (options === null || typeof options !== 'object') {
      return this.scheduler.run<R>({ module: this.filename }, input, options);
    }
    let name: unknown;
    let runOptions: Omit<PoolRunOptions, 'name'>;
    try {
      // Each option read once, here (the copy passed on holds plain values); a getter that
      // throws is refused as `scheduler.run` refuses one, not thrown at the caller.
      ({ name, ...runOptions } = options);
      // Checked here so the refusal names what the caller wrote, `name`, not `task.export`.
      checkExportName(name, 'name');
    } catch (e) {
      if (e instanceof SchedLabError) return Promise.reject(e);
      const error = invalidArgument('options', `could not be read: ${reason(e)}`);
      error.cause = e;
      return Promise.reject(error);
    }
    const exportName = (name as string | undefined) ?? this.defaultName;
    const task =
      exportName === undefined
        ? { module: this.filename }
        : { module: this.filename, export: exportName };
    const run = this.scheduler.run<R>(task, input, runOptions);
    return this.boundByMaxQueue ? run.catch(renameQueueBound) : run;
  }

  /** Cancels what is queued or running and stops the workers (Piscina's `destroy`). */
  destroy(): Promise<void> {
    return this.scheduler.close({ cancel: true });
  }

  /**
   * Lets every run end, then stops the workers (Piscina's `close`); `{ force: true }` cancels
   * what is queued and running instead (`destroy`; Piscina's lets a running task finish). Its
   * options were dropped: `force` drained everything, silently.
   */
  close(options?: { readonly force?: boolean }): Promise<void> {
    let force: boolean;
    try {
      force = closeFlag(options, 'force');
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.scheduler.close({ cancel: force });
  }
}

/** A run refused by the queue bound, named as the caller wrote it (`maxQueue`). */
function renameQueueBound(e: unknown): never {
  if (e instanceof SchedLabError && e.code === 'QUEUE_FULL' && e.field === 'maxQueued') {
    const renamed = new SchedLabError(
      e.code,
      e.message.replace(/\bmaxQueued\b/g, 'maxQueue'),
      'maxQueue',
    );
    renamed.cause = e.cause;
    throw renamed;
  }
  throw e;
}

/** `maxQueued`'s range, as the engine's schema states it. */
const MAX_QUEUED_RANGE = {
  min: engineConfigShape.maxQueued.minValue ?? 1,
  max: engineConfigShape.maxQueued.maxValue ?? Number.MAX_SAFE_INTEGER,
};

/**
 * Piscina's `maxQueue` as `maxQueued`: `'auto'` is the thread count squared (threads: one per core
 * unless given), as in Piscina.
 */
function queueBound(maxQueue: unknown, workers: number | undefined): number | undefined {
  if (maxQueue === undefined) return undefined;
  if (maxQueue !== 'auto') {
    const { min, max } = MAX_QUEUED_RANGE;
    if (Number.isInteger(maxQueue) && (maxQueue as number) >= min && (maxQueue as number) <= max) {
      return maxQueue as number;
    }
    const why = `maxQueue must be 'auto' or an integer ${min}–${max.toLocaleString('en-US')}`;
    throw new SchedLabError('INVALID_ARGUMENT', why, 'maxQueue');
  }
  const threads = workers ?? availableParallelism();
  return threads * threads;
}
