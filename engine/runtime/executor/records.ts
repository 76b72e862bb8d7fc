/**
 * The executor's records of jobs, tasks and splits (DESIGN.md §1). A split record is what the
 * policy queues (`ReadySplit`); it carries one fairness group per mode so switching fairness
 * (split | task | query) only re-points `group`, every group having accumulated all its time.
 */
import type { FairnessGroup, Priority, ReadySplit } from '../../core/ready-queue.ts';
import { INITIAL_PRIORITY } from '../../core/ready-queue.ts';
import type { FairnessMode } from '../../../shared/config.ts';
import type { SplitWork } from '../backend.ts';
import { SplitState, type JobState } from './lifecycle.ts';

export function newGroup(key: string): FairnessGroup {
  return { key, scheduledNanos: 0, priority: INITIAL_PRIORITY };
}

export class ExecJob {
  state: JobState = 'running';
  readonly tasks: ExecTask[] = [];
  totalSplits = 0;
  doneSplits = 0;
  /** Tasks still open for `addSplits`. */
  openTasks = 0;
  scheduledNanos = 0;
  waitNanos = 0;
  endNanos = -1;
  error: string | undefined;
  readonly group: FairnessGroup;

  constructor(
    readonly id: number,
    readonly cls: string,
    readonly clsIndex: number,
    public basePriority: number,
    readonly retries: number,
    readonly submitNanos: number,
  ) {
    this.group = newGroup(`job-${id}`);
  }
}

export class ExecTask {
  /** Leaf splits held back by admission, FIFO (`head` avoids shifting the array). */
  waiting: ExecSplit[] = [];
  head = 0;
  /** Admitted leaf splits not yet terminal: the task's running drivers. */
  admittedLeaves = 0;
  /** Splits the task still waits for (not terminal, not cancelling). */
  readonly live = new Set<ExecSplit>();
  ended = false;
  readonly group: FairnessGroup;

  constructor(
    readonly id: number,
    readonly job: ExecJob,
    readonly index: number,
    public open: boolean,
  ) {
    this.group = newGroup(`task-${id}`);
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
    this.waiting = [];
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
  worker = -1;
  dispatchedAt = 0;
  /** When the split last started waiting (admission FIFO or ready queue). */
  enqueuedAt: number;
  waitNanos = 0;
  /** Level it was dispatched at (MLFQ), for the Gantt. */
  level = 0;
  /** Pending wake-up or retry timer. */
  cancelTimer: (() => void) | null = null;
  /** When the split last yielded and went straight back to the queue; −1 otherwise. */
  yieldedAt = -1;
  readonly ownGroup: FairnessGroup;

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
    this.ownGroup = newGroup(`split-${id}`);
    this.group = groupFor(this, fairness);
    this.priority = this.group.priority;
    this.basePriority = job.basePriority;
    this.readySince = now;
    this.enqueuedAt = now;
    this.state = leaf ? SplitState.waiting : SplitState.queued;
  }
}

export function groupFor(split: ExecSplit, fairness: FairnessMode): FairnessGroup {
  return fairness === 'split'
    ? split.ownGroup
    : fairness === 'task'
      ? split.task.group
      : split.job.group;
}
