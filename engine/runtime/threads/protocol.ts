/**
 * The one contract for messages between the main thread and the workers of the threads backend:
 * discriminated unions, imported with `import type` on both sides.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Dispatch, ErrorCause, QuantumOutcome } from '../backend.ts';
import type { ModuleRef } from '../backend.ts';

/** `workerData` of a backend worker. */
export interface QuantumWorkerData {
  readonly role: 'quantum';
  readonly workerId: number;
  /** Backend clock origin, `process.hrtime.bigint()` as a decimal string. */
  readonly origin: string;
  /** Control words (Int32): see `CONTROL` in `control.ts`. */
  readonly control: SharedArrayBuffer;
  /**
   * A module call may stay suspended in `await ctx.yield()` between quanta: only where the
   * backend pins its split to this worker (threads-backend.ts `affinity`). Elsewhere (the
   * cluster's nodes) `ctx.yield()` resolves at once and the call keeps its worker.
   */
  readonly suspends?: true;
  /**
   * The worker's dispatch ring (dispatch-ring.ts) and the port its extras come on: present for the
   * threads backend's workers, which then take every dispatch from the ring; the port carries
   * only wake-ups. Without them (the cluster's nodes) dispatches come as messages.
   */
  readonly ring?: SharedArrayBuffer;
  readonly extras?: MessagePort;
  /**
   * The worker's end ring (end-ring.ts), with the dispatch ring: the worker publishes its quantum
   * ends there (their extras on the same side port) and posts only `ENDS_READY`.
   */
  readonly endRing?: SharedArrayBuffer;
}

/** Main → backend worker. */
export type ToQuantumWorker = RunMessage | ModuleRefMessage | ModuleCall | Batch | Calls | Drop;

/**
 * Main → backend worker: split `splitId`, suspended here in `await ctx.yield()`, never runs again
 * (cancelled): the worker rejects that await and forgets the continuation.
 */
export interface Drop {
  readonly type: 'drop';
  readonly splitId: number;
}

/**
 * A `Batch` of module refs and calls only, in the form that clones fastest: the refs (handled
 * first: a ref only names a module), then the calls' `ModuleCall`s one after another in one array
 * (`MODULE_CALL_LENGTH` each), in order.
 */
export interface Calls {
  readonly type: 'calls';
  readonly refs: readonly ModuleRefMessage[];
  readonly calls: readonly unknown[];
}
export const MODULE_CALL_LENGTH = 6;

/**
 * Several messages posted in one turn of the main thread to one worker, in order (outbox.ts):
 * the worker handles them as if each had come alone; one `postMessage` instead of many.
 */
export interface Batch {
  readonly type: 'batch';
  readonly items: readonly Exclude<ToQuantumWorker, Batch | Calls>[];
}

/** Main → backend worker: module id `id` is `ref` (sent once to a worker, before its first call). */
export interface ModuleRefMessage {
  readonly type: 'ref';
  readonly id: number;
  readonly ref: ModuleRef;
}

/**
 * A user module's quantum as a flat array, which clones in a quarter of the time of the nested
 * `RunMessage` (this crosses once a quantum): [splitId, quantumNanos, module id (`ModuleRefMessage`),
 * input, ticket word (−1: no ticket, run unconditionally), ticket value].
 */
export type ModuleCall = readonly [number, number, number, unknown, number, number];

/**
 * A quantum's end as a flat array, when it carries no error and no blocked time:
 * [splitId, startNanos, endNanos, workNanos, outcome index (shared/lib/outcomes.ts), cpuNanos
 * (−1: unmeasured), what follows (`FLAT_NONE`, `FLAT_RESULT`, `FLAT_STATE`), the result or state].
 */
export type FlatEnd = readonly [number, number, number, number, number, number, number, unknown];
export const FLAT_END_LENGTH = 8;
export const FLAT_NONE = 0;
export const FLAT_RESULT = 1;
export const FLAT_STATE = 2;
/** The quantum ended in `await ctx.yield()`: the continuation waits in that worker. */
export const FLAT_SUSPENDED = 3;

export type RunMessage = {
  readonly type: 'run';
  readonly dispatch: Dispatch;
  /** A user module's input for this quantum: its first input, or the state it yielded last. */
  readonly input: unknown;
  /**
   * Present for a queued dispatch (`ThreadsBackend.enqueue`): the worker runs it only if it can
   * take this ticket from control word `TICKET + ticketWord` (the main thread may have taken it
   * back); a dispatch without one runs unconditionally.
   */
  readonly ticket?: { readonly word: number; readonly value: number };
};

/** What a worker measured for one quantum; the main thread adds nothing but bookkeeping. */
export interface QuantumReport {
  readonly splitId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly workNanos: number;
  readonly outcome: QuantumOutcome;
  /** CPU time the worker thread used in the quantum (thread-cpu.ts); absent where unmeasured. */
  readonly cpuNanos?: number;
  readonly blockedNanos?: number;
  readonly error?: string;
  /** For `failed`: what the module threw, when it was an `Error` (backend.ts `ErrorCause`). */
  readonly cause?: ErrorCause;
  readonly result?: unknown;
  /** A user module's `{ yield: state }`: the input of its next quantum. */
  readonly state?: unknown;
  /**
   * A module's quantum ended `yielded` inside `await ctx.yield()`: its continuation waits in this
   * worker, so the split's next quantum must run here (threads-backend.ts `affinity`).
   */
  readonly suspended?: true;
}

/**
 * An error no running quantum caught (thrown from a timer or an unhandled rejection) and that
 * belongs to no quantum running now: from a module whose split ended (`splitId`, `module`:
 * `path#export`), or from code no split's module can be named for (both null). The worker goes on.
 */
export interface StrayError {
  readonly splitId: number | null;
  readonly module: string | null;
  readonly error: string;
}

/** Backend worker → main. */
export type FromQuantumWorker =
  /** `unitNanos`: the kernels calibrated so far, by name (none at boot: each on its first quantum). */
  | { readonly type: 'ready'; readonly unitNanos: Readonly<Record<string, number>> }
  | { readonly type: 'end'; readonly report: QuantumReport }
  | { readonly type: 'stray'; readonly stray: StrayError }
  /**
   * Quantum ends the worker gathered while it ran quanta back to back, in order (worker-entry.ts):
   * their `FlatEnd`s one after another in one array (`FLAT_END_LENGTH` each), which clones
   * faster than an array of arrays.
   */
  | { readonly type: 'ends'; readonly ends: readonly unknown[] }
  | FlatEnd
  | typeof ENDS_READY;

/** Backend worker → main: ends were published on the end ring that the main thread was not told of. */
export const ENDS_READY = 1;
