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
import type { FairnessGroup, Priority } from '../../core/ready-queue.ts';
import { INITIAL_PRIORITY } from '../../core/ready-queue.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import type { ErrorCause } from '../backend.ts';
import type { JobState } from './lifecycle.ts';
import type { ExecSplit } from './split-record.ts';

export { ExecSplit, groupFor } from './split-record.ts';

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
  /** Its jobs rejected at submission (`maxLivePerTenant`, `maxQueued`), since first seen. */
  rejectedJobs = 0;
  /** Its share under `fair` (tenants.ts `setWeights`). */
  weight = 1;
  /**
   * Its stretch of work (fair-groups.ts): since when it has had live jobs without a pause longer
   * than `ACTIVE_GAP_NANOS`, its scheduled time then, and when its last live job ended.
   */
  activeSinceNanos = 0;
  serviceAtActiveNanos = 0;
  idleSinceNanos = -Infinity;
  readonly key: string;

  constructor(readonly name: string) {
    this.key = `tenant-${name}`;
  }
}

/** Never added to (`ExecJob.addTask` replaces it first); frozen, so a stray `push` throws. */
const NO_TASKS = Object.freeze([]) as unknown as ExecTask[];

/**
 * What a job rarely has (a failure or cancellation, retries, a graph run's split failures, more
 * than one task): one object made when first set, so a queued job that never fails carries one
 * field, not five.
 */
class JobTrouble {
  error: string | undefined = undefined;
  errorCode: ErrorCode | undefined = undefined;
  errorCause: ErrorCause | undefined = undefined;
  failedSplitReason: string | undefined = undefined;
  retries = 0;
  ownsSplitFailures = false;
  splitError: string | undefined = undefined;
  endedTasks = 0;
}

/**
 * A job is its own fairness group (query fairness): one object, so charging a quantum touches one
 * record less — the executor's per-quantum cost is mostly cache misses on records. Every field
 * costs 8 bytes per queued job (the library queues tens of thousands), so the rare ones live in
 * `JobTrouble` and a job of one task keeps it in a field, not an array.
 */
export class ExecJob implements FairnessGroup {
  state: JobState = 'running';
  /** Its only task, or its tasks in spec order once it has more than one (one field, not two). */
  private held: ExecTask | ExecTask[] | null = null;
  totalSplits = 0;
  doneSplits = 0;
  /** Tasks still open for `addSplits`. */
  openTasks = 0;
  /** Time of all its quanta; also its fairness group's time. */
  scheduledNanos = 0;
  /** A split of it has started a quantum on a worker (its row says `running`, not `queued`). */
  started = false;
  priority: Priority = INITIAL_PRIORITY;
  waitNanos = 0;
  /** `endNanos` once ended: null before, not −1, so V8 boxes no number per live job. */
  private endedAt: number | null = null;
  private trouble: JobTrouble | null = null;

  constructor(
    readonly id: number,
    readonly cls: string,
    readonly clsIndex: number,
    public basePriority: number,
    retries: number,
    readonly submitNanos: number,
    /** Its tenant, whose group it shares under `query` fairness; null: its own group. */
    readonly tenant: TenantGroup | null = null,
    /**
     * Whatever its submitter keeps with it (the library's pending run), handed back in its end
     * event (`JobEnd.owner`), so the submitter needs no map of its own from job id to run. Let go
     * of at the end (job-book.ts): a stale reference to the record must not keep the run's
     * promise, and so its result, alive.
     */
    public owner: unknown = undefined,
  ) {
    if (retries !== 0) this.troubled().retries = retries;
  }

  /** When it ended (ns); −1 while it runs. */
  get endNanos(): number {
    return this.endedAt ?? -1;
  }
  set endNanos(at: number) {
    this.endedAt = at;
  }

  private troubled(): JobTrouble {
    return (this.trouble ??= new JobTrouble());
  }

  /** Failed attempts a split of it may retry. */
  get retries(): number {
    return this.trouble?.retries ?? 0;
  }
  /** Why it failed, was cancelled or rejected: the human message (and `errorCode`). */
  get error(): string | undefined {
    return this.trouble?.error;
  }
  set error(v: string | undefined) {
    if (v !== undefined || this.trouble !== null) this.troubled().error = v;
  }
  get errorCode(): ErrorCode | undefined {
    return this.trouble?.errorCode;
  }
  set errorCode(v: ErrorCode | undefined) {
    if (v !== undefined || this.trouble !== null) this.troubled().errorCode = v;
  }
  /** What the failing split's user module threw (backend.ts `ErrorCause`), when it was an `Error`. */
  get errorCause(): ErrorCause | undefined {
    return this.trouble?.errorCause;
  }
  set errorCause(v: ErrorCause | undefined) {
    if (v !== undefined || this.trouble !== null) this.troubled().errorCause = v;
  }
  /** For a job failed by a split: that split's own reason (`error` is `split N: ` and it). */
  get failedSplitReason(): string | undefined {
    return this.trouble?.failedSplitReason;
  }
  set failedSplitReason(v: string | undefined) {
    if (v !== undefined || this.trouble !== null) this.troubled().failedSplitReason = v;
  }
  /**
   * A graph job (engine/runtime/graph/executor-graph.ts): a split that fails past its retries
   * ends only itself; the graph run decides what follows (a retry, skipped successors, a stop).
   */
  get ownsSplitFailures(): boolean {
    return this.trouble?.ownsSplitFailures ?? false;
  }
  set ownsSplitFailures(v: boolean) {
    if (v || this.trouble !== null) this.troubled().ownsSplitFailures = v;
  }
  /**
   * Whether every task has ended. A job of several tasks counts them as they end (`taskEnded`):
   * a scan per ending made a job of 40,000 empty tasks take 10 s to submit.
   */
  get allTasksEnded(): boolean {
    const held = this.held;
    if (held === null) return true;
    if (!Array.isArray(held)) return held.ended;
    return (this.trouble?.endedTasks ?? 0) === held.length;
  }
  /** One of its tasks ended (once each; every task is added before any ends). */
  taskEnded(): void {
    if (Array.isArray(this.held)) this.troubled().endedTasks++;
  }
  /** While such a job's failed split ends: why it failed, for its end event (`SplitEnd.error`). */
  get splitError(): string | undefined {
    return this.trouble?.splitError;
  }
  set splitError(v: string | undefined) {
    if (v !== undefined || this.trouble !== null) this.troubled().splitError = v;
  }

  addTask(task: ExecTask): void {
    const held = this.held;
    if (held === null) this.held = task;
    else if (Array.isArray(held)) held.push(task);
    else this.held = [held, task];
  }

  /** How many tasks it has (`taskAt` reads them without an array per job). */
  get taskCount(): number {
    const held = this.held;
    return held === null ? 0 : Array.isArray(held) ? held.length : 1;
  }

  /** Its task at `index` in spec order (`0 <= index < taskCount`). */
  taskAt(index: number): ExecTask {
    const held = this.held;
    return (Array.isArray(held) ? held[index] : held)!;
  }

  /** Its tasks in spec order, as a new array (for cold paths; hot ones use `taskAt`). */
  get tasks(): ExecTask[] {
    const held = this.held;
    return held === null ? NO_TASKS : Array.isArray(held) ? [...held] : [held];
  }

  /** Built when read (nothing on the hot path does): no string kept per queued job. */
  get key(): string {
    return `job-${this.id}`;
  }

  get group(): FairnessGroup {
    return this.tenant ?? this;
  }
}

/**
 * A task's live splits, as a `Set` would hold them (`add`, `delete`, `size`, iteration in
 * insertion order), but a task of one split — every library run — keeps it in a field: no `Set`
 * and hash table per queued run. The set is made when a second split arrives. `ExecTask` extends
 * it (`task.live` is the task itself): no second object per task.
 */
export class LiveSplits {
  /** Its one split, or the set once it has had two at once (one field, not two). */
  private held: ExecSplit | Set<ExecSplit> | null = null;

  get size(): number {
    const held = this.held;
    return held === null ? 0 : held instanceof Set ? held.size : 1;
  }

  add(split: ExecSplit): void {
    const held = this.held;
    if (held === null) this.held = split;
    else if (held instanceof Set) held.add(split);
    else if (held !== split) this.held = new Set([held, split]);
  }

  /** Whether it held `split`. */
  delete(split: ExecSplit): boolean {
    const held = this.held;
    if (held instanceof Set) return held.delete(split);
    if (held !== split) return false;
    this.held = null;
    return true;
  }

  *[Symbol.iterator](): IterableIterator<ExecSplit> {
    const held = this.held;
    if (held instanceof Set) yield* held;
    else if (held !== null) yield held;
  }
}

/** Never added to (`TaskExtras.waiting` is replaced first); frozen, so a stray `push` throws. */
const NO_SPLITS = Object.freeze([]) as unknown as ExecSplit[];

/**
 * What only some tasks have: leaf splits held back by admission, their own driver limit, Trino's
 * split concurrency controller and an output buffer. Made on first use: a library run's task has
 * none of them.
 */
class TaskExtras {
  /** Leaf splits held back by admission, FIFO (`head` avoids shifting the array). */
  waiting: ExecSplit[] = NO_SPLITS;
  head = 0;
  maxDrivers = Infinity;
  concurrency: SplitConcurrencyController | null = null;
  buffer: OutputBuffer | null = null;
}

const OPEN = 1;
const ENDED = 2;
/** `flags` bits 2 and up: the level it is counted at in the statistics (`statLevel`). */
const STAT_LEVEL_SHIFT = 2;

/**
 * A task is its own fairness group (task fairness), as a job is. Its live splits are itself
 * (`live`, a `LiveSplits`); what few tasks use is in `TaskExtras`.
 */
export class ExecTask extends LiveSplits implements FairnessGroup {
  /** Admitted leaf splits not yet terminal: the task's running drivers. */
  admittedLeaves = 0;
  /** Its place in admission's round robin (admission.ts); set when the task is registered. */
  rrKey = 0;
  scheduledNanos = 0;
  priority: Priority = INITIAL_PRIORITY;
  private flags: number;
  private extras: TaskExtras | null = null;

  constructor(
    readonly id: number,
    readonly job: ExecJob,
    readonly index: number,
    open: boolean,
  ) {
    super();
    this.flags = open ? OPEN : 0;
  }

  private more(): TaskExtras {
    return (this.extras ??= new TaskExtras());
  }

  /** Splits the task still waits for (not terminal, not cancelling). */
  get live(): LiveSplits {
    return this;
  }

  /** Still open for `addSplits`. */
  get open(): boolean {
    return (this.flags & OPEN) !== 0;
  }
  set open(v: boolean) {
    this.flags = v ? this.flags | OPEN : this.flags & ~OPEN;
  }

  /** The level it is counted at in the executor's statistics (executor-stats.ts). */
  get statLevel(): number {
    return this.flags >> STAT_LEVEL_SHIFT;
  }
  set statLevel(level: number) {
    this.flags = (level << STAT_LEVEL_SHIFT) | (this.flags & (OPEN | ENDED));
  }

  get ended(): boolean {
    return (this.flags & ENDED) !== 0;
  }
  set ended(v: boolean) {
    this.flags = v ? this.flags | ENDED : this.flags & ~ENDED;
  }

  /** Its own limit on running leaf splits (the spec's `maxDriversPerTask`); none = the engine's. */
  get maxDrivers(): number {
    return this.extras?.maxDrivers ?? Infinity;
  }
  set maxDrivers(v: number) {
    if (v !== Infinity || this.extras !== null) this.more().maxDrivers = v;
  }

  /** Trino's split concurrency controller, while `initialSplitConcurrency` is set; else null. */
  get concurrency(): SplitConcurrencyController | null {
    return this.extras?.concurrency ?? null;
  }
  set concurrency(v: SplitConcurrencyController | null) {
    if (v !== null || this.extras !== null) this.more().concurrency = v;
  }

  /** Its output buffer (the spec's `outputBuffer`); null: utilisation 0. */
  get buffer(): OutputBuffer | null {
    return this.extras?.buffer ?? null;
  }
  set buffer(v: OutputBuffer | null) {
    if (v !== null || this.extras !== null) this.more().buffer = v;
  }

  get key(): string {
    return `task-${this.id}`;
  }

  /** Holds `split` back in the admission FIFO. */
  addWaiting(split: ExecSplit): void {
    const x = this.more();
    if (x.waiting === NO_SPLITS) x.waiting = [];
    x.waiting.push(split);
  }

  get group(): FairnessGroup {
    return this;
  }

  /** Leaf splits it may run at once by its controller's target (no controller: no limit). */
  get targetConcurrency(): number {
    return this.extras?.concurrency?.targetConcurrency ?? Infinity;
  }

  /** Its output buffer's utilisation at `now` (Trino's utilisation supplier). */
  utilization(now: number): number {
    return this.extras?.buffer?.utilization(now) ?? 0;
  }

  get waitingCount(): number {
    const x = this.extras;
    return x === null ? 0 : x.waiting.length - x.head;
  }

  popWaiting(): ExecSplit | undefined {
    const x = this.extras;
    if (x === null) return undefined;
    const s = x.waiting[x.head];
    if (s === undefined) return undefined;
    x.waiting[x.head++] = undefined as unknown as ExecSplit;
    if (x.head > 1024 && x.head * 2 > x.waiting.length) {
      x.waiting = x.waiting.slice(x.head);
      x.head = 0;
    }
    return s;
  }

  /** Drops cancelled splits from the admission FIFO. */
  clearWaiting(): ExecSplit[] {
    const x = this.extras;
    if (x === null) return [];
    const out = x.waiting.slice(x.head);
    x.waiting = NO_SPLITS;
    x.head = 0;
    return out;
  }
}
