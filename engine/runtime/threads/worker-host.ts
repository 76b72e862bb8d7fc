/**
 * Spawning a worker thread that runs a TypeScript entry of this folder (through `boot.mjs`), and
 * turning its death — exit, uncaught error, out of memory — into one `onLost(reason)` call.
 */
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { workerStartUrl } from '../compiled.ts';

const BOOT = new URL('./boot.mjs', import.meta.url);

export interface SpawnOptions {
  /** File name of the entry next to this file, e.g. `worker-entry.ts`. */
  readonly entry: string;
  readonly workerData: Record<string, unknown>;
  readonly transferList?: readonly Transferable[];
  readonly resourceLimits?: ResourceLimits;
  readonly onMessage: (message: unknown) => void;
  /** Called once when the worker dies without `retire()` having been asked for. */
  readonly onLost: (reason: string) => void;
}

export class WorkerHost {
  readonly worker: Worker;
  private retiring = false;
  private error: string | undefined;

  constructor(options: SpawnOptions) {
    const entry = new URL(options.entry, BOOT);
    const init: ConstructorParameters<typeof Worker>[1] = {
      workerData: { ...options.workerData, entry: entry.href },
      // The parent may run under a loader (tsx, vitest); the boot file registers its own.
      execArgv: [],
    };
    if (options.transferList !== undefined) init.transferList = [...options.transferList];
    if (options.resourceLimits !== undefined) init.resourceLimits = options.resourceLimits;
    this.worker = new Worker(workerStartUrl(entry, BOOT), init);
    this.worker.on('message', options.onMessage);
    this.worker.on('error', (error: Error) => {
      this.error = `${error.name}: ${error.message}`;
    });
    this.worker.on('exit', (code: number) => {
      if (this.retiring) return;
      options.onLost(this.error ?? `exit code ${code}`);
    });
  }

  post(message: unknown, transferList?: readonly Transferable[]): void {
    this.worker.postMessage(message, transferList === undefined ? undefined : [...transferList]);
  }

  /** Ends the worker on purpose; `onLost` is not called. */
  retire(): Promise<number> {
    this.retiring = true;
    return this.worker.terminate();
  }
}
