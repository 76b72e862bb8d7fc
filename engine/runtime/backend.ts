/**
 * The seam between the executor (which decides) and a backend (which runs). Two backends
 * implement it: `threads` (real worker_threads doing real CPU work) and `sim` (a discrete-event
 * simulator with a virtual clock). The executor never knows which one it drives.
 *
 * Semantics of one dispatch (docs/design.md §4, docs/design.md §9):
 * - With `perCallNanos` set (Trino leaf / intermediate splits) a dispatch runs exactly one call of
 *   `min(remaining, perCallNanos)`; the call is atomic, so it may overrun the quantum (measured,
 *   never hidden).
 * - Without it, the split runs its kernel in small units (≈50–200 µs) and yields at the first unit
 *   boundary past the quantum, or when its work is done.
 * - With `blockedNanosPerCall` set, a call that leaves work undone ends `blocked` for that long:
 *   the worker is free at once and the executor re-offers the split when it wakes.
 */
import type { SplitWork } from '../../shared/job.ts';
import type { QuantumOutcome } from '../../shared/lib/outcomes.ts';

// A split's work (kernel, input, total and per-call time, blocking, fault injection) is defined
// once, by the schema in shared/job.ts.
export type { KernelName, ModuleRef, SplitWork } from '../../shared/job.ts';

/** The reason of a dispatch failed by `failProbability`, the same on every backend. */
export const INJECTED_FAILURE = 'injected failure (failProbability)';

/**
 * The floor of the automatic hard limit (`hardKillAfterMs: 0`): max(10 × a dispatch's quantum,
 * this). The one figure the executor's settings, the threads backend's watchdog and a central
 * graph run's default read.
 */
export const HARD_KILL_FLOOR_NANOS = 5_000_000_000;

export interface Dispatch {
  readonly splitId: number;
  readonly workerId: number;
  readonly quantumNanos: number;
  readonly work: SplitWork;
  /** Work already done by earlier quanta (ns). */
  readonly doneNanos: number;
}

export type { QuantumOutcome } from '../../shared/lib/outcomes.ts';

/**
 * What a user module threw, as its worker saw it (a failed quantum's `cause`): enough to rebuild
 * an `Error` on the main thread for whoever waits on the run (the library's `error.cause`).
 */
export interface ErrorCause {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** The thrown error's own `code`, when it had a string or number one. */
  readonly code?: string | number;
}

export interface QuantumEnd {
  readonly splitId: number;
  readonly workerId: number;
  /** Backend clock (ns) when the quantum started and ended. */
  readonly startNanos: number;
  readonly endNanos: number;
  /** Measured running time of this quantum (ns); may exceed the quantum (overrun). */
  readonly ranNanos: number;
  /**
   * CPU time the worker thread used in this quantum (ns), next to its wall time `ranNanos`:
   * less when it waited (a module awaiting, the thread descheduled on a loaded machine). Threads
   * on Linux only (threads/thread-cpu.ts); absent on the simulator and where unmeasured (a user
   * module's quantum after one shorter than 1 ms on the same worker, threads/quantum-runner.ts).
   */
  readonly cpuNanos?: number;
  /** Work done by this quantum (ns of the split's total). */
  readonly workNanos: number;
  readonly outcome: QuantumOutcome;
  /** For `blocked`: how long until the split may run again. */
  readonly blockedNanos?: number;
  /** For `failed`: why (kernel threw, worker died, …). */
  readonly error?: string;
  /**
   * For `failed`: the catalogue code of `error` — `WORKER_LOST` when the worker died under the
   * split, `QUANTUM_OVERRUN_KILLED` when the backend killed it (`setHardKill`); absent means
   * `KERNEL_FAILED` (the kernel or user module threw, or an injected fault).
   */
  readonly errorCode?:
    | 'WORKER_LOST'
    | 'KERNEL_FAILED'
    | 'QUANTUM_OVERRUN_KILLED'
    | 'INTERRUPTED'
    | 'MODULE_NOT_ALLOWED';
  /** For `failed`: the error a user module threw, when it threw an `Error`. */
  readonly cause?: ErrorCause;
  /** A user module's result when it finished. */
  readonly result?: unknown;
  /**
   * True when the dispatch never started: the backend could not hand it to the worker (the
   * cluster: Redis refused to store it, or lost it restarting empty), or took it back from behind
   * a running quantum (threads: cancelled, revoked, its worker retired). No quantum, no time, no
   * span: the split goes back to the queue (its outcome `yielded`, or `cancelled`; `ranNanos` 0).
   * Any other end of a dispatch queued behind a running one ran, ahead of it or after it.
   */
  readonly unstarted?: boolean;
}

/**
 * The `QuantumEnd` a backend refills for a listener that keeps nothing of an end
 * (`BackendEvents.transientEnd`, the executor): one object per backend, not one a quantum. Every
 * field is present (undefined where an end has none), so its shape never changes; a listener
 * reads the optional ones as `!== undefined`, never with `in`.
 */
export interface MutableEnd {
  splitId: number;
  workerId: number;
  startNanos: number;
  endNanos: number;
  ranNanos: number;
  cpuNanos: number | undefined;
  workNanos: number;
  outcome: QuantumOutcome;
  blockedNanos: number | undefined;
  error: string | undefined;
  cause: ErrorCause | undefined;
  result: unknown;
}

/** How a dispatch that never started ends: offered again, or cancelled. */
export type Unstarted = 'yielded' | 'cancelled';

/**
 * The end of a dispatch that never started (`QuantumEnd.unstarted`): taken back from behind a
 * running quantum (threads), or never handed to its worker (the cluster). No time, no work.
 */
export function unstartedEnd(
  splitId: number,
  workerId: number,
  at: number,
  outcome: Unstarted = 'yielded',
): QuantumEnd {
  return {
    splitId,
    workerId,
    startNanos: at,
    endNanos: at,
    ranNanos: 0,
    workNanos: 0,
    outcome,
    unstarted: true,
  };
}

export function newEnd(): MutableEnd {
  return {
    splitId: 0,
    workerId: 0,
    startNanos: 0,
    endNanos: 0,
    ranNanos: 0,
    cpuNanos: undefined,
    workNanos: 0,
    outcome: 'yielded',
    blockedNanos: undefined,
    error: undefined,
    cause: undefined,
    result: undefined,
  };
}

export interface BackendEvents {
  quantumEnd(end: QuantumEnd): void;
  /**
   * Something the backend did or saw on its own that the timeline should show (an event of this
   * `kind`): a worker killed by the hard limit, an error a user module threw after its split
   * ended (`splitId`: the split it came from). Optional.
   */
  notice?(kind: string, detail: string, splitId?: number): void;
  /**
   * The listener keeps nothing of a `QuantumEnd` after `quantumEnd` returns, so a backend may
   * hand it the same object every time (no allocation per quantum on the simulator's hot path).
   */
  readonly transientEnd?: boolean;
  /**
   * The backend can take dispatches it could not take before without any quantum ending (the
   * cluster backend: a worker node joined, Redis came back): the executor dispatches again.
   */
  capacity?(): void;
}

export interface Backend {
  readonly kind: 'threads' | 'sim';
  /** The backend's clock in ns (virtual for sim, monotonic wall clock for threads). */
  now(): number;
  /** Workers that may take a dispatch now (shrinking lets running quanta finish). */
  readonly workerCount: number;
  setWorkerCount(count: number): void;
  /** Idle worker ids, lowest first. */
  idleWorkers(): number[];
  /** The lowest idle worker id, or −1: `idleWorkers()[0]` without building the array. */
  firstIdleWorker?(): number;
  start(dispatch: Dispatch): void;
  /** `start` with the dispatch's fields as arguments: no `Dispatch` object per quantum. */
  startQuantum?(
    splitId: number,
    workerId: number,
    quantumNanos: number,
    work: SplitWork,
    doneNanos: number,
  ): void;
  /**
   * Asks a running split to stop at its next unit boundary; it ends `cancelled`. A queued split
   * (`enqueue`) that has not started ends `cancelled` at once, with no work done.
   */
  cancel(splitId: number): void;
  /**
   * Pipelining (optional; `threads` has it, so a worker need not wait a round trip through the
   * executor between quanta): busy worker ids, lowest first, that can hold one more dispatch.
   */
  queueableWorkers?(): number[];
  /**
   * Queues `dispatch` behind the running quantum of a worker from `queueableWorkers()`: it starts
   * there the moment that quantum ends, and is running from the caller's view from now on (its
   * end comes after the running one's; `cancel` applies). A queued dispatch the backend cannot
   * start (its worker was lost or retired) ends `yielded` with no work done, to be offered again.
   */
  enqueue?(dispatch: Dispatch): void;
  /**
   * How many more dispatches busy worker `workerId` can hold queued (0 when idle or retiring).
   * Optional: without it a worker holds one queued dispatch, and `queueableWorkers` says which.
   * With it the executor queues several behind a worker, as long as their expected run time
   * stays within one quantum (dispatcher.ts `fillQueues`).
   */
  queueRoom?(workerId: number): number;
  /**
   * With `queueRoom`: how much queued work (ns, expected run time) a busy worker should hold to
   * stay fed when it is more than one quantum (the cluster: a dispatch's trip through Redis takes
   * a few ms, more than a 1 ms quantum). Optional: without it, one quantum's worth.
   */
  readonly queueAheadNanos?: number;
  /**
   * With `queueRoom`: queue the first dispatch behind a busy worker only once its running
   * quantum is expected to end within this long (ns), a pump timed for that moment (late
   * binding: what runs next is chosen as late as the trip to the worker allows, so a newcomer the
   * policy favours waits for the running quantum only). Optional: without it a busy worker gets
   * its queued dispatch at once.
   */
  readonly bindLeadNanos?: number;
  /**
   * The worker split `splitId` must next run on, or −1 for any (optional; `threads` pins a split
   * whose module call is suspended in `await ctx.yield()` on the worker that holds it). The
   * executor dispatches a pinned split only there: started when that worker is idle, else queued
   * behind its quantum (`enqueue`).
   */
  affinity?(splitId: number): number;
  /**
   * Whether worker `workerId` can run `work` (optional: any worker runs anything). The cluster:
   * a user module only on a node started with `--modules`. The executor sends a split only to a
   * worker that can run it: another idle one, else queued behind a busy one, else it waits.
   */
  runs?(workerId: number, work: SplitWork): boolean;
  /**
   * Takes back a queued dispatch that has not started: true when it never will (no quantum end
   * comes for it), false when it has started or is not queued.
   */
  revoke?(splitId: number): boolean;
  /**
   * The executor's quantum got shorter (a switch away from non-preemptive `priority`, `preemptive`
   * turned on, a smaller `quantumMs`): the quantum running on `workerId` now ends at its first
   * unit boundary past `start + quantumNanos` (at once if that is already past), or when its work
   * is done, whichever comes first. A per-call dispatch (`perCallNanos`) is atomic and keeps its
   * length. Nothing happens when the worker is idle or its quantum is already no longer. Optional:
   * without it a running quantum keeps the length it was dispatched with.
   */
  shortenQuantum?(workerId: number, quantumNanos: number): void;
  /**
   * The hard limit (ns; 0 = auto: max(10 × the dispatch's quantum, 5 s)): a user module's quantum
   * that overruns its quantum by more than this has its worker terminated and replaced and ends
   * `failed` with `QUANTUM_OVERRUN_KILLED` (a built-in kernel stops by itself); a cancelled
   * one still running this long after `cancel` ends `cancelled` the same way. Optional: a backend
   * whose quanta cannot hang (sim) has none.
   */
  setHardKill?(afterNanos: number): void;
  /**
   * Stops the quantum of split `splitId` running on `workerId` now, on request (the executor's
   * `interruptSplit`), through the hard limit's path: its worker is terminated and replaced and
   * the quantum ends `failed` with `INTERRUPTED`. False when the worker runs nothing, or another
   * split: an end the worker had published is delivered first, and the split queued behind it
   * may be running by then (it was killed in the named split's place). Optional: without it the
   * executor cancels the quantum (it stops at its next unit of work) and fails it itself.
   */
  interrupt?(workerId: number, why: string, splitId: number): boolean;
  /** The machine a worker id runs on, where there are several (cluster: the node's name). */
  workerNode?(workerId: number): string | undefined;
  /**
   * When the quantum running on `workerId` started (backend clock), or null while its dispatch
   * waits for the worker to start (a worker still booting). Optional: without it the executor
   * counts a running quantum from its dispatch.
   */
  quantumStart?(workerId: number): number | null;
  /**
   * The most running time the quantum on `workerId` counts while its end has not come (ns): a
   * backend that cannot hear of ends for a while (the cluster with Redis down) bounds it by what
   * the quantum was granted, so a worker whose end is held up does not read busy all along.
   * Optional: without it a running quantum counts until its end.
   */
  runningBound?(workerId: number): number;
  /** Runs `fn` at backend time `atNanos`; returns a canceller. */
  setTimer(atNanos: number, fn: () => void): () => void;
  setListener(events: BackendEvents): void;
  close(): Promise<void>;
}
