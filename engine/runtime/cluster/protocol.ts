/**
 * The one contract between the coordinator (`ClusterBackend`, the process that hosts the session
 * and keeps the policy) and worker nodes (`schedlab worker`), through Redis:
 *
 * - registry: hash `<ns>:nodes`, field = node instance, value = `NodeRecord` (JSON), rewritten
 *   with every heartbeat; the heartbeat itself is key `<ns>:hb:<instance>` with a TTL. A node
 *   whose heartbeat key is gone is lost (`HEARTBEAT`: the bound is `ttlMs` + the coordinator's
 *   poll).
 * - dispatch: one BullMQ queue per node instance (`q-<instance>`, BullMQ prefix `<ns>`), one job
 *   per quantum (`QuantumJob`) naming the node worker that runs it. A coordinator keeps on a
 *   worker its running job and queued ones behind it while those queued add up to less than
 *   `QUEUE_AHEAD_NANOS` of quanta, at most `MAX_QUEUED_PER_WORKER` (so a worker never waits a round
 *   trip through the coordinator between quanta, and a newcomer the policy favours waits at
 *   most about that long behind them); the node's BullMQ worker takes up to that many per worker
 *   at once and runs each worker's jobs one after another, in the order they were added. The
 *   first of them is chosen late, near the running one's expected end (`BIND_LEAD_NANOS`).
 * - ends: the node pushes each quantum's end (`EndMessage`, JSON) onto the list
 *   `<ns>:ends:<coordinator>` named by the job's `replyTo`, the moment the worker reports it (the
 *   ends of one turn of its event loop in one `RPUSH`, with the list's `PEXPIRE`, in one write);
 *   the coordinator pops that list (one blocking read, up to `ENDS_PER_READ` at a time). The job's
 *   BullMQ return value is the same `QuantumResult`, kept for recovery (recovery.ts). A list, not
 *   BullMQ's queue events: one push and one pop per end instead of an event stream read per node
 *   and a completion first (docs/design.md §4: dispatch must be cheap).
 * - control: pub/sub channel `<ns>:ctl:<instance>` (`ControlMessage`): cancel a split, cut a
 *   running quantum (a running quantum cannot read a queue, only its worker's control words).
 *   A split id is one coordinator's (each executor numbers its own from the start), so a message
 *   names its coordinator too and touches only that coordinator's quanta: a cancel sent as one
 *   session closes never cancels the next session's split of the same id.
 *
 * An instance is the node's name plus a random suffix, so a node that restarts under the same
 * name is a new instance: the old one's in-flight quanta are never confused with the new one's.
 */
import type { ErrorCause, QuantumEnd, SplitWork } from '../backend.ts';
import type { Zeros } from './json-value.ts';

export const DEFAULT_NAMESPACE = 'schedlab';

/** How often a node beats and how long its beat lives; the coordinator polls every `pollMs`. */
export const HEARTBEAT = { everyMs: 1000, ttlMs: 3000, pollMs: 500 } as const;

export interface HeartbeatTiming {
  readonly everyMs: number;
  readonly ttlMs: number;
  readonly pollMs: number;
}

export const keys = {
  nodes: (ns: string) => `${ns}:nodes`,
  heartbeat: (ns: string, instance: string) => `${ns}:hb:${instance}`,
  control: (ns: string, instance: string) => `${ns}:ctl:${instance}`,
  /** Quantum ends for one coordinator (`QuantumJob.replyTo`). */
  ends: (ns: string, coordinator: string) => `${ns}:ends:${coordinator}`,
  /** A coordinator's test write: whether Redis takes writes (fleet.ts), short-lived. */
  probe: (ns: string) => `${ns}:probe`,
  /** BullMQ queue name (a BullMQ name has no `:`; the namespace is the queue's `prefix`). */
  queue: (instance: string) => `q-${instance}`,
};

/**
 * Queued quanta behind a worker's running one: while they add up to less than this (ns) another
 * may be queued — one 100 ms quantum, or five of 1 ms, enough to cover a dispatch's trip through
 * Redis and BullMQ (a few ms) — and never more than `MAX_QUEUED_PER_WORKER`.
 */
export const QUEUE_AHEAD_NANOS = 5_000_000;

/**
 * Late binding (`Backend.bindLeadNanos`): the first dispatch queued behind a busy worker is
 * chosen only once the running quantum is expected to end within the lead (ns), so a newcomer
 * the policy favours that arrives before then is the one queued (it waits for the running
 * quantum, not for a quantum queued ahead of it too). The lead must cover the trip through Redis
 * to the node and the coordinator's timer, which vary with load, so it adapts: a queued dispatch
 * whose worker sat idle more than `BIND_LATE_NANOS` before it started (`idleBeforeNanos`), after a
 * quantum that ran its whole length (so it ended when expected), arrived late, and the lead grows
 * by that idle time; one on time shrinks it by 2 %. It starts at `BIND_LEAD_NANOS` and stays
 * within `BIND_LEAD_MIN_NANOS`..`BIND_LEAD_MAX_NANOS`.
 */
export const BIND_LEAD_NANOS = 5_000_000;
export const BIND_LEAD_MIN_NANOS = 2_000_000;
export const BIND_LEAD_MAX_NANOS = 50_000_000;
export const BIND_LATE_NANOS = 250_000;
export const MAX_QUEUED_PER_WORKER = 8;

/**
 * An ends list no coordinator reads (its coordinator is gone) expires this long after its last
 * push; a live coordinator pops it within a read.
 */
export const ENDS_TTL_MS = 120_000;

/** Ends one blocking read of the ends list takes at most. */
export const ENDS_PER_READ = 256;

/** A node's `--name`: letters, digits, `.`, `_`, `-` (it ends up in Redis keys and queue names). */
export const NODE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export interface NodeRecord {
  readonly instance: string;
  /** What the operator called it (`--name`, default the host name). */
  readonly name: string;
  readonly workers: number;
  /**
   * Whether it runs user modules (started with `--modules`); absent from a node of an older
   * version, which is taken to.
   */
  readonly modules?: boolean;
  /** `up`: takes dispatches; `leaving`: finishing what it runs, then deregistering. */
  readonly status: 'up' | 'leaving';
  readonly host: string;
  readonly pid: number;
  readonly startedAt: number;
}

/** One quantum of one split: the job's data. */
export interface QuantumJob {
  /** The coordinator whose ends list gets this quantum's end (`keys.ends`). */
  readonly replyTo: string;
  /** The node worker that runs it: 0 ≤ worker < the node's `workers`. */
  readonly worker: number;
  readonly splitId: number;
  readonly quantumNanos: number;
  readonly work: SplitWork;
  readonly doneNanos: number;
  /** A user module's input for this quantum: its first input, or the state it yielded last. */
  readonly input?: unknown;
  /** Where `input` holds `-0` (JSON writes it 0; json-value.ts). */
  readonly inputZeros?: Zeros;
}

/** What a node measured for one quantum: the job's return value. */
export interface QuantumResult {
  readonly splitId: number;
  /** Measured by the node (its worker thread), ns. */
  readonly ranNanos: number;
  readonly workNanos: number;
  readonly outcome: QuantumEnd['outcome'];
  readonly blockedNanos?: number;
  readonly error?: string;
  readonly errorCode?: QuantumEnd['errorCode'];
  /** What a user module threw (its name, message, stack and own `code`), as on threads. */
  readonly cause?: ErrorCause;
  readonly result?: unknown;
  /** A user module's `{ yield: state }` (present when it yielded). */
  readonly state?: { readonly value: unknown };
  /** Where `result`, or the yielded state, holds `-0` (JSON writes it 0; json-value.ts). */
  readonly zeros?: Zeros;
  /** The node worker (thread) that ran it. */
  readonly worker: number;
  /**
   * How long that worker had sat idle since its last quantum when this one started (node clock,
   * ns); absent when it started the moment the one before it ended (it was queued there) or the
   * worker had run nothing yet. A dispatch sent to be queued that reports it arrived late.
   */
  readonly idleBeforeNanos?: number;
}

/** One quantum's end on a coordinator's ends list. */
export interface EndMessage {
  readonly jobId: string;
  readonly result: QuantumResult;
}

/** `coordinator`: the sender, as in its jobs' `QuantumJob.replyTo`; with `splitId`, the split. */
export type ControlMessage =
  | {
      readonly type: 'cancel';
      readonly coordinator: string;
      readonly splitId: number;
      /**
       * The job id of the quantum to stop (`${coordinator}-${n}`, unique): a cancel that arrives
       * after that quantum ended must not stop the split's next one (an interrupt would then end
       * the split `CANCELLED`, not `INTERRUPTED`).
       */
      readonly quantum: string;
    }
  | {
      readonly type: 'cut';
      readonly coordinator: string;
      readonly splitId: number;
      readonly nanos: number;
    };
