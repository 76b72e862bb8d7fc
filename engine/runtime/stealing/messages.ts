/**
 * Messages between the stealing executor and its workers (one discriminated union each way). A
 * run's end travels through shared memory instead (`park.ts`).
 */
import type { RunBuffers } from './layout.ts';

export type ToWorker =
  | {
      readonly type: 'run';
      readonly runId: number;
      /** Names the run's shared memory; the same id means the same memory as the last run. */
      readonly memoryId: number;
      /**
       * The memory itself, sent only when `memoryId` changes: passing 20 shared buffers through
       * every run's message cost more than running a 10k-node graph.
       */
      readonly buffers: RunBuffers | null;
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
  | { readonly type: 'error'; readonly runId: number; readonly message: string };
