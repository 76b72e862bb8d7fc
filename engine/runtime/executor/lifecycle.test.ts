import { describe, expect, it } from 'vitest';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  SPLIT_STATE_NAMES,
  SplitState,
  checkJobTransition,
  checkSplitTransition,
  isTerminalSplit,
  type JobState,
} from './lifecycle.ts';

// Written from the header of lifecycle.ts, independently of its table.
const LEGAL_SPLIT = new Set([
  'waiting→queued',
  'waiting→cancelled',
  'queued→running',
  'queued→cancelled',
  'running→queued',
  'running→blocked',
  'running→retrying',
  'running→succeeded',
  'running→failed',
  'running→cancelling',
  'blocked→queued',
  'blocked→cancelled',
  'retrying→queued',
  'retrying→cancelled',
  'cancelling→cancelled',
]);
const LEGAL_JOB = new Set(['running→succeeded', 'running→failed', 'running→cancelled']);
const JOB_STATES: JobState[] = ['running', 'succeeded', 'failed', 'cancelled', 'rejected'];
const SPLIT_STATES = Object.values(SplitState);

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof SchedLabError ? e.code : 'not a SchedLabError';
  }
  return undefined;
}

describe('split lifecycle', () => {
  it.each(SPLIT_STATES.flatMap((from) => SPLIT_STATES.map((to) => [from, to] as const)))(
    'split %i → %i is legal exactly when the header says so',
    (from, to) => {
      const name = `${SPLIT_STATE_NAMES[from]}→${SPLIT_STATE_NAMES[to]}`;
      const legal = LEGAL_SPLIT.has(name);
      expect(
        code(() => checkSplitTransition(3, from, to)),
        name,
      ).toBe(legal ? undefined : 'ILLEGAL_TRANSITION');
    },
  );

  it('the error names the split and both states', () => {
    expect(() => checkSplitTransition(3, SplitState.running, SplitState.cancelled)).toThrowError(
      'split 3: running → cancelled is not a legal transition',
    );
  });

  it('terminal states are succeeded, failed and cancelled', () => {
    expect(SPLIT_STATES.filter(isTerminalSplit).map((s) => SPLIT_STATE_NAMES[s])).toEqual([
      'succeeded',
      'failed',
      'cancelled',
    ]);
  });
});

describe('job lifecycle', () => {
  it.each(JOB_STATES.flatMap((from) => JOB_STATES.map((to) => [from, to] as const)))(
    'job %s → %s is legal exactly when the header says so',
    (from, to) => {
      const legal = LEGAL_JOB.has(`${from}→${to}`);
      expect(code(() => checkJobTransition(9, from, to))).toBe(
        legal ? undefined : 'ILLEGAL_TRANSITION',
      );
    },
  );
});
