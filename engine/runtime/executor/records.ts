/**
 * The executor's records of jobs, tasks and splits (docs/design.md §1). A split record is what the
 * policy queues (`ReadySplit`); its job and task are fairness groups themselves, and it has its
 * own, so switching fairness (split | task | query) only re-points `group`, every group having
 * accumulated all its time. A job submitted for a tenant (`JobSpec.tenant`, the library's
 * `scheduler.run(…, { tenant })`) has its tenant as its query: under `query` fairness every job of
 * one tenant shares the tenant's group, as the tasks of one Trino query share the query's.
 */
import type { OutputBuffer } from '../../core/concurrency/output-buffer.ts';
import type { SplitConcurrencyController } from '../../core/concurrency/split-concurrency-controller.ts';
import type { FairnessGroup, Priority, ReadySplit } from '../../core/ready-queue.ts';
import { INITIAL_PRIORITY } from '../../core/ready-queue.ts';
import type { FairnessMode } from '../../../shared/config.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import type { SplitWork } from '../backend.ts';
import { SplitState, type JobState } from './lifecycle.ts';

/**
 * A tenant: the fairness group of all its jobs under `query` fairness (tenants.ts keeps them).
 * Its time is the sum of all its jobs' quanta, so under `mlfq` a tenant's accumulated time
 * decides the level of its every job, and under `fair` tenants share the workers.
 */
export class TenantGroup implements FairnessGroup {
  scheduledNanos = 0;
  priority: Priority = INITIAL_PRIORITY;
  /** Its jobs not ended yet. */
  liveJobs = 0;
  readonly key: string;

  constructor(readonly name: string) {
    this.key = `tenant-${name}`;
  }
}

/** Never added to (`ExecJob.addTask` replaces it first); frozen, so a stray `push` throws. */
const NO_TASKS = Object.freeze([]) as unknown as ExecTask[];

/**
 * A job is its own fairness group (query fairness): one object, so charging a quantum touches one
 * record less — the executor's per-quantum cost is mostly cache misses on records.
 */
export class ExecJob implements FairnessGroup {
  state: JobState = 'running';
  /** Its tasks in spec order; sized as they come (`addTask`), not a 17-slot array per job. */
  tasks: ExecTask[] = NO_TASKS;
  totalSplits = 0;
  doneSplits = 0;
  /** Tasks still open for `addSplits`. */
  openTasks = 0;
  /** Time of all its quanta; also its fairness group's time. */
  scheduledNanos = 0;
  priority: Priority = INITIAL_PRIORITY;
  waitNanos = 0;
  endNanos = -1;
  /** Why it failed, was cancelled or rejected: a catalogue code and the human message. */
  error: string | undefined;
  errorCode: ErrorCode | undefined;
  /**
   * A graph job (engine/runtime/graph/executor-graph.ts): a split that fails past its retries
   * ends only itself; the graph run decides what follows (a retry, skipped successors, a stop).
   */
  ownsSplitFailures = false;
  /** While such a job's failed split ends: why it failed, for its end event (`SplitEnd.error`). */
  splitError: string | undefined = undefined;

  constructor(
    readonly id: number,
    readonly cls: string,
    readonly clsIndex: number,
    public basePriority: number,
    readonly retries: number,
    readonly submitNanos: number,
    /** Its tenant, whose group it shares under `query` fairness; null: its own group. */
    readonly tenant: TenantGroup | null = null,
    /**
     * Whatever its submitter keeps with it (the library's pending run), handed back in its end
     * event (`JobEnd.owner`), so the submitter needs no map of its own from job id to run.
     */
    readonly owner: unknown = undefined,
  ) {}

  addTask(task: ExecTask): void {
    if (this.tasks === NO_TASKS) this.tasks = [task];
    else this.tasks.push(task);
  }

  /** Built when read (nothing on the hot path does): no string kept per queued job. */
  get key(): string {
    return `job-${this.id}`;
  }

  get group(): FairnessGroup {
    return this.tenant ?? this;
  }
}

/** Never added to (`ExecTask.addWaiting` replaces it first); frozen, so a stray `push` throws. */
const NO_SPLITS = Object.freeze([]) as unknown as ExecSplit[];

/**
 * A task's live splits, as a `Set` would hold them (`add`, `delete`, `size`, iteration in
 * insertion order), but a task of one split — every library run — keeps it in a field: no `Set`
 * and hash table per queued run. The set is made when a second split arrives.
 */
export class LiveSplits {
  private one: ExecSplit | null = null;
  private many: Set<ExecSplit> | null = null;

  get size(): number {
    return this.many !== null ? this.many.size : this.one === null ? 0 : 1;
  }

  add(split: ExecSplit): void {
    if (this.many !== null) this.many.add(split);
    else if (this.one === null || this.one === split) this.one = split;
    else {
      this.many = new Set([this.one, split]);
      this.one = null;
    }
  }

  /** Whether it held `split`. */
  delete(split: ExecSplit): boolean {
    if (this.many !== null) return this.many.delete(split);
    if (this.one !== split) return false;
    this.one = null;
    return true;
  }

  *[Symbol.iterator](): IterableIterator<ExecSplit> {
    if (this.many !== null) yield* this.many;
    else if (this.one !== null) yield this.one;
  }
}

/** A task is its own fairness group (task fairness), as a job is. */
export class ExecTask implements FairnessGroup {
  /**
   * Leaf splits held back by admission, FIFO (`head` avoids shifting the array); the shared empty
   * `NO_SPLITS` until the first arrives (most tasks have none: no array per queued job).
   */
  waiting: ExecSplit[] = NO_SPLITS;
  head = 0;
  /** Admitted leaf splits not yet terminal: the task's running drivers. */
  admittedLeaves = 0;
  /** Its place in admission's round robin (admission.ts); set when the task is registered. */
  rrKey = 0;
  /** Its own limit on running leaf splits (the spec's `maxDriversPerTask`); none = the engine's. */
  maxDrivers = Infinity;
  /** Trino's split concurrency controller, while `initialSplitConcurrency` is set; else null. */
  concurrency: SplitConcurrencyController | null = null;
  /** The level it is counted at in the executor's statistics (executor-stats.ts). */
  statLevel = 0;
  /** Its output buffer (the spec's `outputBuffer`); null: utilisation 0. */
  buffer: OutputBuffer | null = null;
  /** Splits the task still waits for (not terminal, not cancelling). */
  readonly live = new LiveSplits();
  ended = false;
  scheduledNanos = 0;
  priority: Priority = INITIAL_PRIORITY;

  constructor(
    readonly id: number,
    readonly job: ExecJob,
    readonly index: number,
    public open: boolean,
  ) {}

  get key(): string {
    return `task-${this.id}`;
  }

  /** Holds `split` back in the admission FIFO. */
  addWaiting(split: ExecSplit): void {
    if (this.waiting === NO_SPLITS) this.waiting = [];
    this.waiting.push(split);
  }

  get group(): FairnessGroup {
    return this;
  }

  /** Leaf splits it may run at once by its controller's target (no controller: no limit). */
  get targetConcurrency(): number {
    return this.concurrency?.targetConcurrency ?? Infinity;
  }

  /** Its output buffer's utilisation at `now` (Trino's utilisation supplier). */
  utilization(now: number): number {
    return this.buffer?.utilization(now) ?? 0;
  }

  get waitingCount(): number {
    return this.waiting.length - this.head;
  }

  popWaiting(): ExecSplit | undefined {
    const s = this.waiting[this.head];
    if (s === undefined) return undefined;
    this.waiting[this.head++] = undefined as unknown as ExecSplit;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return s;
  }

  /** Drops cancelled splits from the admission FIFO. */
  clearWaiting(): ExecSplit[] {
    const out = this.waiting.slice(this.head);
    this.waiting = NO_SPLITS;
    this.head = 0;
    return out;
  }
}

export class ExecSplit implements ReadySplit {
  group: FairnessGroup;
  priority: Priority;
  basePriority: number;
  readySince: number;
  scheduledNanos = 0;
  state: SplitState;
  doneNanos = 0;
  /** Failed attempts so far. */
  failures = 0;
  /** Code of its last failure (KERNEL_FAILED, WORKER_LOST), for its end event. */
  errorCode: ErrorCode | undefined = undefined;
  worker = -1;
  dispatchedAt = 0;
  /** When the split last started waiting (admission FIFO, then each time in the ready queue). */
  enqueuedAt: number;
  /** Its waits in the ready queue (Trino's split wait time). */
  waitNanos = 0;
  /** A leaf split's time in its task's admission FIFO (Trino's queued time); 0 for others. */
  queuedNanos = 0;
  /** The wait that ended at its latest dispatch (ns), for the job trail. */
  lastWaitNanos = 0;
  /** The most any of its quanta ran past the quantum (ns), for the `overrun` warning. */
  maxOverrunNanos = 0;
  /** Level it was dispatched at (MLFQ), for the Gantt. */
  level = 0;
  /** Cancelled while running under `finish-quantum`: the backend is told when its quantum ends. */
  cancelAfterQuantum = false;
  /** Interrupted on request while running (`interruptSplit`): its quantum ends `INTERRUPTED`. */
  interrupted = false;
  /** Pending wake-up or retry timer. */
  cancelTimer: (() => void) | null = null;
  /**
   * Whether the split has been back in the ready queue after running (yielded, woken, retried):
   * its waits from then on are requeue waits (a new split's first wait starts once admitted).
   */
  requeued = false;
  /** Its own fairness group, made on first use (split fairness); see `ownGroup`. */
  private own: FairnessGroup | null = null;

  constructor(
    readonly id: number,
    readonly sequence: number,
    readonly job: ExecJob,
    readonly task: ExecTask,
    readonly leaf: boolean,
    readonly work: SplitWork,
    now: number,
    fairness: FairnessMode,
  ) {
    this.group = groupFor(this, fairness);
    this.priority = this.group.priority;
    this.basePriority = job.basePriority;
    this.readySince = now;
    this.enqueuedAt = now;
    this.state = leaf ? SplitState.waiting : SplitState.queued;
  }

  /** The split's own fairness group; made on first use with all the time the split has run. */
  get ownGroup(): FairnessGroup {
    this.own ??= {
      key: `split-${this.id}`,
      scheduledNanos: this.scheduledNanos,
      priority: INITIAL_PRIORITY,
    };
    return this.own;
  }

  /** Adds a quantum to the split and to every fairness group that counts it. */
  addScheduledNanos(ran: number): void {
    this.scheduledNanos += ran;
    this.task.scheduledNanos += ran;
    this.job.scheduledNanos += ran;
    if (this.job.tenant !== null) this.job.tenant.scheduledNanos += ran;
    if (this.own !== null) this.own.scheduledNanos += ran;
  }
}

export function groupFor(split: ExecSplit, fairness: FairnessMode): FairnessGroup {
  return fairness === 'split'
    ? split.ownGroup
    : fairness === 'task'
      ? split.task.group
      : split.job.group;
}
