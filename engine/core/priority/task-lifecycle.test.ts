import { describe, expect, it } from 'vitest';
import { SchedLabError } from '../../../shared/errors.ts';
import { backoffNanos, retryPolicy } from './retry.ts';
import {
  assertTransition,
  canTransition,
  isTerminal,
  PriorityTask,
  TASK_TRANSITIONS,
  type TaskState,
} from './task-lifecycle.ts';

const S = 1_000_000_000;
const STATES = Object.keys(TASK_TRANSITIONS) as TaskState[];
const LEGAL = new Set([
  'pending→running',
  'pending→cancelled',
  'pending→rejected',
  'running→succeeded',
  'running→failed',
  'running→retrying',
  'running→cancelled',
  'retrying→pending',
  'retrying→cancelled',
]);

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof SchedLabError ? e.code : 'not a SchedLabError';
  }
  return undefined;
}

describe('task lifecycle', () => {
  it.each(STATES.flatMap((from) => STATES.map((to) => [from, to] as const)))(
    '%s → %s is legal exactly when the header says so',
    (from, to) => {
      const legal = LEGAL.has(`${from}→${to}`);
      expect(canTransition(from, to)).toBe(legal);
      expect(code(() => assertTransition(from, to))).toBe(legal ? undefined : 'ILLEGAL_TRANSITION');
    },
  );

  it('terminal states are succeeded, failed, cancelled and rejected', () => {
    expect(STATES.filter(isTerminal).sort()).toEqual([
      'cancelled',
      'failed',
      'rejected',
      'succeeded',
    ]);
  });

  it('a failing task retries maxRetries times with backoff, then fails for good', () => {
    const policy = retryPolicy({ maxRetries: 2, backoffBaseNanos: S, backoffFactor: 3 });
    const task = new PriorityTask('t', 40, 0, policy);
    task.start();
    expect(task.fail(10 * S)).toBe('retrying');
    expect(task.retryAtNanos).toBe(11 * S);
    expect(code(() => task.requeue(11 * S - 1))).toBe('ILLEGAL_TRANSITION'); // backoff not over
    task.requeue(11 * S);
    expect(task.state).toBe('pending');
    task.start();
    expect(task.fail(20 * S)).toBe('retrying');
    expect(task.retryAtNanos).toBe(23 * S);
    task.requeue(30 * S);
    task.start();
    expect(task.fail(40 * S)).toBe('failed');
    expect(task.attempts).toBe(3);
    expect(task.retriesUsed).toBe(2);
    expect(code(() => task.start())).toBe('ILLEGAL_TRANSITION');
  });

  it('a retry keeps the base priority and restarts the aging clock', () => {
    const task = new PriorityTask(7, 80, 5 * S);
    expect(task.readySince).toBe(5 * S);
    task.start();
    task.fail(100 * S);
    task.requeue(200 * S);
    expect(task.readySince).toBe(200 * S);
    expect(task.basePriority).toBe(80);
  });

  it('cancel works while queued, running or backing off, never after the end', () => {
    const queued = new PriorityTask(1, 0, 0);
    queued.cancel();
    const running = new PriorityTask(2, 0, 0);
    running.start();
    running.cancel();
    const backingOff = new PriorityTask(3, 0, 0);
    backingOff.start();
    backingOff.fail(0);
    backingOff.cancel();
    expect([queued.state, running.state, backingOff.state]).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    const done = new PriorityTask(4, 0, 0);
    done.start();
    done.succeed();
    expect(code(() => done.cancel())).toBe('ILLEGAL_TRANSITION');
    const rejected = new PriorityTask(5, 0, 0);
    rejected.reject();
    expect(code(() => rejected.start())).toBe('ILLEGAL_TRANSITION');
  });

  it('an illegal transition names the task and both states', () => {
    const task = new PriorityTask('job-9', 10, 0);
    expect(() => task.succeed()).toThrow(/job-9 cannot go from pending to succeeded/);
  });

  it('a task with a priority outside 0..100 is refused', () => {
    expect(code(() => new PriorityTask(1, 101, 0))).toBe('INVALID_ARGUMENT');
  });
});

describe('retry backoff', () => {
  it('grows exponentially from the base and stops at the cap', () => {
    const policy = retryPolicy({
      backoffBaseNanos: 2 * S,
      backoffFactor: 2,
      backoffCapNanos: 10 * S,
    });
    expect([1, 2, 3, 4, 5].map((r) => backoffNanos(r, policy) / S)).toEqual([2, 4, 8, 10, 10]);
  });
});
