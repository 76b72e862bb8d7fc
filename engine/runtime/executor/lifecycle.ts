/**
 * Lifecycles of splits and jobs, checked on every transition (an illegal one is a bug and throws
 * `ILLEGAL_TRANSITION`).
 *
 * Split:
 *   waiting    → queued | cancelled            (leaf split held by Trino admission in its task's FIFO)
 *   queued     → running | cancelled           (in the policy's ready queue)
 *   running    → queued                        (yielded at the end of its quantum)
 *              | blocked                       (parked on a timer; the worker is free)
 *              | retrying                      (failed, retries left; waits out its backoff)
 *              | succeeded | failed            (terminal)
 *              | cancelling                    (its job ended while it ran; stops at the next unit)
 *   blocked    → queued | cancelled            (woken: offered with reason 'woken')
 *   retrying   → queued | cancelled            (backoff over: offered with reason 'retry')
 *   cancelling → cancelled                     (its quantum ended)
 * A running split is never cancelled directly: it passes through `cancelling` until its worker
 * reports the quantum's end, so the worker is never handed a second split meanwhile.
 *
 * Job: running → succeeded | failed | cancelled; a job refused at submission is born `rejected`.
 * A job is terminal exactly once; its splits may still be `cancelling` afterwards.
 */
import { SchedLabError } from '../../../shared/errors.ts';

export const SplitState = {
  waiting: 0,
  queued: 1,
  running: 2,
  blocked: 3,
  retrying: 4,
  cancelling: 5,
  succeeded: 6,
  failed: 7,
  cancelled: 8,
} as const;
export type SplitState = (typeof SplitState)[keyof typeof SplitState];

export const SPLIT_STATE_NAMES = [
  'waiting',
  'queued',
  'running',
  'blocked',
  'retrying',
  'cancelling',
  'succeeded',
  'failed',
  'cancelled',
] as const;

const S = SplitState;
const bits = (...states: SplitState[]): number => states.reduce<number>((m, s) => m | (1 << s), 0);

const ALLOWED: readonly number[] = [
  /* waiting    */ bits(S.queued, S.cancelled),
  /* queued     */ bits(S.running, S.cancelled),
  // Never straight to cancelled: a running split is on a worker until its quantum ends.
  /* running    */ bits(S.queued, S.blocked, S.retrying, S.succeeded, S.failed, S.cancelling),
  /* blocked    */ bits(S.queued, S.cancelled),
  /* retrying   */ bits(S.queued, S.cancelled),
  /* cancelling */ bits(S.cancelled),
  /* succeeded  */ 0,
  /* failed     */ 0,
  /* cancelled  */ 0,
];

export function isTerminalSplit(state: SplitState): boolean {
  return state >= S.succeeded;
}

/** Throws unless `from → to` is a legal split transition. */
export function checkSplitTransition(id: number, from: SplitState, to: SplitState): void {
  if (((ALLOWED[from] ?? 0) & (1 << to)) === 0) {
    throw new SchedLabError(
      'ILLEGAL_TRANSITION',
      `split ${id}: ${SPLIT_STATE_NAMES[from]} → ${SPLIT_STATE_NAMES[to]} is not a legal transition`,
      'state',
    );
  }
}

export type JobState = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'rejected';

export function checkJobTransition(id: number, from: JobState, to: JobState): void {
  if (from !== 'running' || to === 'running' || to === 'rejected') {
    throw new SchedLabError(
      'ILLEGAL_TRANSITION',
      `job ${id}: ${from} → ${to} is not a legal transition`,
      'state',
    );
  }
}
