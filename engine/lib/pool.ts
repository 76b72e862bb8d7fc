/**
 * A Piscina-shaped front for `Scheduler`, so moving a service over is one import and a tenant:
 *
 *     import { Piscina } from 'piscina';            →  import { Pool as Piscina } from 'schedlab';
 *     new Piscina({ filename, maxThreads: 4 })       (unchanged; add `policy` if not mlfq)
 *     await pool.run(input, { name: 'resize' })      →  await pool.run(input, { name: 'resize', tenant })
 *
 * Only Piscina's common surface: `filename`, `maxThreads`, `run(input, { name, signal })`,
 * `destroy()`, `close()`. Runs reject with `SchedLabError`s (an abort is `CANCELLED`, not
 * Piscina's `AbortError`).
 */
import { SchedLabError } from '../../shared/errors.ts';
import type { RunOptions, SchedulerOptions } from './options.ts';
import { Scheduler } from './scheduler.ts';

export interface PoolOptions extends SchedulerOptions {
  /** The task module: an absolute path or a file URL (Piscina's `filename`). */
  readonly filename: string | URL;
  /** Worker threads (Piscina's `maxThreads`); `workers` means the same and wins. */
  readonly maxThreads?: number;
  /** Accepted for Piscina compatibility and ignored: the pool keeps `maxThreads` running. */
  readonly minThreads?: number;
}

export interface PoolRunOptions extends RunOptions {
  /** The export to call (Piscina's `name`); default `default`. */
  readonly name?: string;
}

export class Pool {
  /** The scheduler underneath: `configure`, `stats`, `serveConsole`. */
  readonly scheduler: Scheduler;
  private readonly filename: string | URL;

  constructor(options: PoolOptions) {
    const { filename, maxThreads, minThreads: _ignored, ...rest } = options ?? {};
    if (typeof filename !== 'string' && !(filename instanceof URL)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'filename must be an absolute path or a file URL',
        'filename',
      );
    }
    this.filename = filename;
    const workers = rest.workers ?? maxThreads;
    this.scheduler = new Scheduler(workers === undefined ? rest : { ...rest, workers });
  }

  run<R = unknown>(input?: unknown, options: PoolRunOptions = {}): Promise<R> {
    const { name, ...runOptions } = options;
    const task =
      name === undefined ? { module: this.filename } : { module: this.filename, export: name };
    return this.scheduler.run<R>(task, input, runOptions);
  }

  /** Cancels what is queued or running and stops the workers (Piscina's `destroy`). */
  destroy(): Promise<void> {
    return this.scheduler.close({ cancel: true });
  }

  /** Lets every run end, then stops the workers (Piscina's `close`). */
  close(): Promise<void> {
    return this.scheduler.close();
  }
}
