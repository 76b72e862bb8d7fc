/**
 * The lifecycle of one PRIO task (docs/design.md §3.2).
 *
 * States: pending, running, succeeded, failed, retrying, cancelled, rejected.
 * Legal transitions:
 *   pending  → running    (dispatched)
 *   pending  → cancelled  (cancelled while queued)
 *   pending  → rejected   (refused, e.g. the queue was at maxQueued)
 *   running  → succeeded
 *   running  → failed     (no retries left)
 *   running  → retrying   (failed, retries left: waits out its backoff)
 *   running  → cancelled  (a running job can be cancelled; it stops cooperatively)
 *   retrying → pending    (backoff over: queued again, same base priority, aging clock restarted)
 *   retrying → cancelled  (so a cancel never has to wait out a backoff)
 * Terminal: succeeded, failed, cancelled, rejected. Anything else is a bug: ILLEGAL_TRANSITION.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { assertPriority } from './bands.ts';
import type { TaskId } from './queued-task.ts';
import { backoffNanos, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.ts';

export type TaskState =
  'pending' | 'running' | 'succeeded' | 'failed' | 'retrying' | 'cancelled' | 'rejected';

export const TASK_TRANSITIONS: Readonly<Record<TaskState, readonly TaskState[]>> = Object.freeze({
  pending: ['running', 'cancelled', 'rejected'],
  running: ['succeeded', 'failed', 'retrying', 'cancelled'],
  retrying: ['pending', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
  rejected: [],
});

export function canTransition(from: TaskState, to: TaskState): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

export function isTerminal(state: TaskState): boolean {
  return TASK_TRANSITIONS[state].length === 0;
}

export function assertTransition(from: TaskState, to: TaskState, what = 'task'): void {
  if (!canTransition(from, to)) {
    throw new SchedLabError(
      'ILLEGAL_TRANSITION',
      `${what} cannot go from ${from} to ${to}`,
      'state',
    );
  }
}

/** One task's state, attempts and aging clock; every change goes through the table above. */
export class PriorityTask {
  readonly id: TaskId;
  readonly basePriority: number;
  private current: TaskState = 'pending';
  private runs = 0;
  private retries = 0;
  private since: number;
  private retryAt = 0;

  constructor(
    id: TaskId,
    basePriority: number,
    readySince: number,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    assertPriority(basePriority, 'basePriority');
    this.id = id;
    this.basePriority = basePriority;
    this.since = readySince;
  }

  get state(): TaskState {
    return this.current;
  }
  /** Times it was dispatched. */
  get attempts(): number {
    return this.runs;
  }
  get retriesUsed(): number {
    return this.retries;
  }
  /** Start of the aging clock: submission, or the moment of its latest retry. */
  get readySince(): number {
    return this.since;
  }
  /** While retrying: when its backoff ends. */
  get retryAtNanos(): number {
    return this.retryAt;
  }

  start(): void {
    this.move('running');
    this.runs++;
  }

  succeed(): void {
    this.move('succeeded');
  }

  /** A failed run: `retrying` (with its backoff set) while retries are left, else `failed`. */
  fail(now: number): TaskState {
    if (this.retries < this.retry.maxRetries) {
      this.move('retrying');
      this.retries++;
      this.retryAt = now + backoffNanos(this.retries, this.retry);
    } else {
      this.move('failed');
    }
    return this.current;
  }

  /** Backoff over: pending again, its aging clock restarted at `now` (a failing task must not climb). */
  requeue(now: number): void {
    if (this.current === 'retrying' && now < this.retryAt) {
      throw new SchedLabError(
        'ILLEGAL_TRANSITION',
        `task ${String(this.id)} cannot be requeued before its backoff ends at ${this.retryAt} ns`,
        'state',
      );
    }
    this.move('pending');
    this.since = now;
  }

  cancel(): void {
    this.move('cancelled');
  }

  reject(): void {
    this.move('rejected');
  }

  private move(to: TaskState): void {
    assertTransition(this.current, to, `task ${String(this.id)}`);
    this.current = to;
  }
}
