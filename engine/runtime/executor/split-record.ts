/**
 * The executor's split record (records.ts has jobs and tasks): what the policy queues. The
 * executor's most numerous record — one per queued library run — so it carries only what every
 * split uses; its flags share one number and its rare fields live in `SplitExtras`.
 */
import type { FairnessGroup, Priority, ReadySplit } from '../../core/ready-queue.ts';
import { INITIAL_PRIORITY } from '../../core/ready-queue.ts';
import type { FairnessMode } from '../../../shared/config.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import type { SplitWork } from '../backend.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecJob, ExecTask } from './records.ts';

/**
 * What a split rarely has: failed attempts, a pending timer, its own fairness group (split
 * fairness), an admission queued time (leaf splits), an overrun. Made on first use.
 */
class SplitExtras {
  failures = 0;
  errorCode: ErrorCode | undefined = undefined;
  cancelTimer: (() => void) | null = null;
  own: FairnessGroup | null = null;
  queuedNanos = 0;
  maxOverrunNanos = 0;
}

const LEAF = 1;
const CANCEL_AFTER_QUANTUM = 2;
const INTERRUPTED = 4;
const REQUEUED = 8;
/** `flags` bits 4–7: the state; bits 8–15: the level it was dispatched at. */
const STATE_SHIFT = 4;
const STATE_MASK = 0xf << STATE_SHIFT;
const LEVEL_SHIFT = 8;
const LEVEL_MASK = 0xff << LEVEL_SHIFT;

/**
 * A split: what the policy queues (`ReadySplit`). The executor's most numerous record (one per
 * queued library run), so its flags, state and level share one number, its job is its task's,
 * and its rare fields live in `SplitExtras`. Its times are null until first set (`readySince`
 * and `enqueuedAt` read the job's submit time until then, the dispatch times 0): once any split
 * has held a time past the small-integer range (2³¹ ns, two seconds), V8 keeps a plain number
 * field in a number object of its own (16 bytes) in every split, a queued run's too; a field
 * that has held null keeps small integers in place and boxes only large values.
 */
export class ExecSplit implements ReadySplit {
  group: FairnessGroup;
  priority: Priority;
  basePriority: number;
  scheduledNanos = 0;
  doneNanos = 0;
  worker = -1;
  /** Its waits in the ready queue (Trino's split wait time). */
  waitNanos = 0;
  /** The MLFQ queue's entry for it (`ReadySplit.queueEntry`). */
  queueEntry: unknown = undefined;
  /** Its row in the waiting splits' columns (waiting-index.ts); -1 when it has none. */
  waitingRow = -1;
  /** `readySince` once set; null: the job's submit time. */
  private readyAt: number | null = null;
  /** `enqueuedAt` once set; null: the job's submit time. */
  private enqueuedAtNanos: number | null = null;
  /** `dispatchedAt` and `lastWaitNanos` once dispatched; null before (0). */
  private dispatchedAtNanos: number | null = null;
  private lastWaitAt: number | null = null;
  private flags: number;
  private extras: SplitExtras | null = null;

  constructor(
    readonly id: number,
    job: ExecJob,
    readonly task: ExecTask,
    leaf: boolean,
    readonly work: SplitWork,
    now: number,
    fairness: FairnessMode,
  ) {
    const state = leaf ? SplitState.waiting : SplitState.queued;
    this.flags = (leaf ? LEAF : 0) | (state << STATE_SHIFT);
    this.group = groupFor(this, fairness);
    this.priority = this.group.priority;
    this.basePriority = job.basePriority;
    if (now !== job.submitNanos) {
      this.readyAt = now;
      this.enqueuedAtNanos = now;
    }
  }

  get job(): ExecJob {
    return this.task.job;
  }

  get state(): SplitState {
    return ((this.flags & STATE_MASK) >> STATE_SHIFT) as SplitState;
  }
  set state(state: SplitState) {
    this.flags = (this.flags & ~STATE_MASK) | (state << STATE_SHIFT);
  }

  /** Level it was dispatched at (MLFQ level, PRIO band), for the Gantt. */
  get level(): number {
    return (this.flags & LEVEL_MASK) >> LEVEL_SHIFT;
  }
  set level(level: number) {
    this.flags = (this.flags & ~LEVEL_MASK) | ((level & 0xff) << LEVEL_SHIFT);
  }

  /** PRIO: start of the aging clock (ns). */
  get readySince(): number {
    return this.readyAt ?? this.task.job.submitNanos;
  }
  set readySince(at: number) {
    this.readyAt = at;
  }

  /** When the split last started waiting (admission FIFO, then each time in the ready queue). */
  get enqueuedAt(): number {
    return this.enqueuedAtNanos ?? this.task.job.submitNanos;
  }
  set enqueuedAt(at: number) {
    this.enqueuedAtNanos = at;
  }

  /** When its latest quantum was dispatched (ns); 0 before its first. */
  get dispatchedAt(): number {
    return this.dispatchedAtNanos ?? 0;
  }
  set dispatchedAt(at: number) {
    this.dispatchedAtNanos = at;
  }

  /** The wait that ended at its latest dispatch (ns), for the job trail; 0 before its first. */
  get lastWaitNanos(): number {
    return this.lastWaitAt ?? 0;
  }
  set lastWaitNanos(nanos: number) {
    this.lastWaitAt = nanos;
  }

  private more(): SplitExtras {
    return (this.extras ??= new SplitExtras());
  }

  private flag(bit: number, on: boolean): void {
    this.flags = on ? this.flags | bit : this.flags & ~bit;
  }

  /** Creation order, for ties between equal priorities: its id (ids are handed out in order). */
  get sequence(): number {
    return this.id;
  }

  /** A leaf split passes Trino's admission before it is queued. */
  get leaf(): boolean {
    return (this.flags & LEAF) !== 0;
  }

  /** Cancelled while running under `finish-quantum`: the backend is told when its quantum ends. */
  get cancelAfterQuantum(): boolean {
    return (this.flags & CANCEL_AFTER_QUANTUM) !== 0;
  }
  set cancelAfterQuantum(v: boolean) {
    this.flag(CANCEL_AFTER_QUANTUM, v);
  }

  /** Interrupted on request while running (`interruptSplit`): its quantum ends `INTERRUPTED`. */
  get interrupted(): boolean {
    return (this.flags & INTERRUPTED) !== 0;
  }
  set interrupted(v: boolean) {
    this.flag(INTERRUPTED, v);
  }

  /**
   * Whether the split has been back in the ready queue after running (yielded, woken, retried):
   * its waits from then on are requeue waits (a new split's first wait starts once admitted).
   */
  get requeued(): boolean {
    return (this.flags & REQUEUED) !== 0;
  }
  set requeued(v: boolean) {
    this.flag(REQUEUED, v);
  }

  /** Failed attempts so far. */
  get failures(): number {
    return this.extras?.failures ?? 0;
  }
  set failures(v: number) {
    if (v !== 0 || this.extras !== null) this.more().failures = v;
  }

  /** Code of its last failure (KERNEL_FAILED, WORKER_LOST), for its end event. */
  get errorCode(): ErrorCode | undefined {
    return this.extras?.errorCode;
  }
  set errorCode(v: ErrorCode | undefined) {
    if (v !== undefined || this.extras !== null) this.more().errorCode = v;
  }

  /** Pending wake-up or retry timer. */
  get cancelTimer(): (() => void) | null {
    return this.extras?.cancelTimer ?? null;
  }
  set cancelTimer(v: (() => void) | null) {
    if (v !== null || this.extras !== null) this.more().cancelTimer = v;
  }

  /** A leaf split's time in its task's admission FIFO (Trino's queued time); 0 for others. */
  get queuedNanos(): number {
    return this.extras?.queuedNanos ?? 0;
  }
  set queuedNanos(v: number) {
    if (v !== 0 || this.extras !== null) this.more().queuedNanos = v;
  }

  /** The most any of its quanta ran past the quantum (ns), for the `overrun` warning. */
  get maxOverrunNanos(): number {
    return this.extras?.maxOverrunNanos ?? 0;
  }
  set maxOverrunNanos(v: number) {
    if (v !== 0 || this.extras !== null) this.more().maxOverrunNanos = v;
  }

  /** The split's own fairness group; made on first use with all the time the split has run. */
  get ownGroup(): FairnessGroup {
    const x = this.more();
    x.own ??= {
      key: `split-${this.id}`,
      scheduledNanos: this.scheduledNanos,
      priority: INITIAL_PRIORITY,
    };
    return x.own;
  }

  /** Adds a quantum to the split and to every fairness group that counts it. */
  addScheduledNanos(ran: number): void {
    this.scheduledNanos += ran;
    this.task.scheduledNanos += ran;
    const job = this.task.job;
    job.scheduledNanos += ran;
    if (job.tenant !== null) job.tenant.scheduledNanos += ran;
    const own = this.extras?.own;
    if (own != null) own.scheduledNanos += ran;
  }
}

export function groupFor(split: ExecSplit, fairness: FairnessMode): FairnessGroup {
  return fairness === 'split'
    ? split.ownGroup
    : fairness === 'task'
      ? split.task.group
      : split.job.group;
}
