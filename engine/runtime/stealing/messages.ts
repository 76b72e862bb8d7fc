/** Messages between the stealing executor and its workers (one discriminated union each way). */
import type { RunBuffers } from './layout.ts';
import type { LoopStats } from './worker-loop.ts';

export type ToWorker =
  | {
      readonly type: 'run';
      readonly runId: number;
      readonly workers: number;
      readonly buffers: RunBuffers;
      readonly kernelNames: readonly string[];
      readonly failFast: boolean;
      readonly verify: boolean;
      readonly sampleEvery: number;
      /** The run's time origin (`threads/clock.ts` `originNow`): loop times are ns since it. */
      readonly origin: bigint;
    }
  | { readonly type: 'close' };

export type FromWorker =
  | { readonly type: 'ready'; readonly workerId: number }
  | { readonly type: 'done'; readonly runId: number; readonly stats: LoopStats }
  | { readonly type: 'error'; readonly runId: number; readonly message: string };
