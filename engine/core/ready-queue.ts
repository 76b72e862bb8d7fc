/**
 * The one small interface every scheduling policy implements (docs/design.md §3), so the executor can
 * swap policies live: `drain()` the old queue, `offer(split, now, 'moved')` each split into the
 * new one, nothing lost, nothing duplicated.
 *
 * Time is always passed in (integer nanoseconds); a policy never reads a clock.
 */

export type PolicyName = 'mlfq' | 'priority' | 'fifo' | 'fair';

/** MLFQ priority of a fairness group (Trino's `Priority`). */
export interface Priority {
  readonly level: number;
  readonly levelPriority: number;
}

/**
 * The entity whose accumulated time decides a split's level: the split itself, its task or its
 * job (docs/design.md §1). All splits of one group share this object. The executor adds every
 * quantum's measured time to `scheduledNanos` before it calls `ReadyQueue.charge`.
 */
export interface FairnessGroup {
  readonly key: string;
  scheduledNanos: number;
  /** MLFQ: the group's one shared Priority; maintained by the MLFQ policy. */
  priority: Priority;
  /**
   * `fair`: its share of the workers relative to other groups (absent: 1). Its virtual runtime
   * grows by charged time / weight, so a group of weight 3 is served three times as long as one
   * of weight 1 while both wait. Other policies ignore it.
   */
  readonly weight?: number;
}

/** What a policy needs to know about a split. The executor's split record extends this. */
export interface ReadySplit {
  readonly id: number;
  /** Creation order; ties between equal priorities go to the lower sequence. */
  readonly sequence: number;
  group: FairnessGroup;
  /** MLFQ: the Priority the split was queued with (refreshed on take, charge and wake). */
  priority: Priority;
  /** PRIO: base priority 0..100, smaller = more urgent. */
  basePriority: number;
  /**
   * PRIO: start of the aging clock (ns): the time it has waited is `now − readySince`. Restarted
   * when the split is retried; moved on by the time it spent away (`dispatchedAt`) when it comes
   * back after a quantum or a block, since running or blocked is not waiting.
   */
  readySince: number;
  /** When its latest quantum was dispatched (ns); 0 (or absent) before its first. */
  readonly dispatchedAt?: number;
  /** This split's own accumulated scheduled time (ns). */
  scheduledNanos: number;
  /**
   * The MLFQ queue's entry for this split, kept on the split rather than in a map keyed by id
   * (a map entry per queued split costs more than the field). Only the queue reads or writes it.
   */
  queueEntry?: unknown;
}

/** Why a split is being offered; policies treat wake-ups and retries specially. */
export type OfferReason = 'new' | 'requeue' | 'woken' | 'retry' | 'moved';

/** Per level (MLFQ) or per priority band (PRIO) or a single row (fifo/fair), for telemetry. */
export interface LevelStat {
  readonly level: number;
  readonly label: string;
  readonly depth: number;
  readonly scheduledNanos: number;
  readonly selections: number;
  /** PRIO: aging re-keys that made a queued split of this band more urgent (cumulative). */
  readonly agingBoosts?: number;
}

export interface ReadyQueue<S extends ReadySplit = ReadySplit> {
  readonly policy: PolicyName;
  /** Live (queued) splits. */
  readonly size: number;
  offer(split: S, now?: number, reason?: OfferReason): void;
  /** Next split to run, or null when empty. */
  take(now?: number): S | null;
  /** Removes a queued split; false when it was not queued. */
  remove(split: S): boolean;
  /** After a quantum: the executor has already added `quantumNanos` to the group and the split. */
  charge(split: S, quantumNanos: number, now: number): void;
  /**
   * A split taken to run came back without running a quantum (a queued dispatch that never
   * started) and is not offered again: no charge follows. Optional: only `fair` tracks taken splits.
   */
  released?(split: S): void;
  /**
   * Whether `running`'s group, charged `expectedNanos` more, would still be chosen before the
   * queue's next split (of another group): then that split is not committed ahead of it (the
   * executor's pipeline). Optional: only `fair` answers.
   */
  defers?(running: S, expectedNanos: number): boolean;
  /** Periodic re-evaluation (aging); a no-op for policies without time-dependent priority. */
  tick(now: number): void;
  /** Removes and returns every queued split, most urgent first. */
  drain(): S[];
  levels(): LevelStat[];
}

export const INITIAL_PRIORITY: Priority = Object.freeze({ level: 0, levelPriority: 0 });

/** A ready split with defaults, for tests, benchmarks and callers outside the executor. */
export function makeSplit(
  id: number,
  group: FairnessGroup = makeGroup(`split-${id}`),
  overrides: Partial<Omit<ReadySplit, 'id' | 'group'>> = {},
): ReadySplit {
  return {
    id,
    sequence: id,
    group,
    priority: group.priority,
    basePriority: 50,
    readySince: 0,
    scheduledNanos: 0,
    ...overrides,
  };
}

export function makeGroup(key: string): FairnessGroup {
  return { key, scheduledNanos: 0, priority: INITIAL_PRIORITY };
}
