import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../../shared/protocol.ts';
import { ROW_HEIGHT, outcomeText, visibleRows } from './job-table.tsx';

describe('virtualized job table', () => {
  it('renders only the rows in view plus a small overscan, however many jobs there are', () => {
    const [first, last] = visibleRows(0, 10 * ROW_HEIGHT, 100_000);
    expect(first).toBe(0);
    expect(last - first).toBeLessThanOrEqual(10 + 2 * 6);
  });

  it('follows the scroll position and stops at the end of the list', () => {
    expect(visibleRows(500 * ROW_HEIGHT, 10 * ROW_HEIGHT, 100_000)).toEqual([494, 516]);
    expect(visibleRows(95 * ROW_HEIGHT, 10 * ROW_HEIGHT, 100)).toEqual([89, 100]);
    expect(visibleRows(0, 300, 0)).toEqual([0, 0]);
  });
});

describe('job outcome column', () => {
  const row = (extra: Partial<JobRow>): JobRow => ({
    id: 3,
    class: 'a',
    state: 'failed',
    basePriority: 50,
    splits: 1,
    splitsDone: 1,
    scheduledNanos: 0,
    submitNanos: 0,
    endNanos: 5,
    ...extra,
  });

  it('a failed job shows its code and reason; a cancelled one likewise', () => {
    expect(
      outcomeText(row({ errorCode: 'WORKER_LOST', error: 'split 1: worker lost: exit code 7' })),
    ).toBe('WORKER_LOST: split 1: worker lost: exit code 7');
    expect(
      outcomeText(
        row({ state: 'cancelled', errorCode: 'CANCELLED', error: 'cancelled by request' }),
      ),
    ).toBe('CANCELLED: cancelled by request');
  });

  it('a one-split user-module job shows its result; a running or plain job shows nothing', () => {
    expect(outcomeText(row({ state: 'succeeded', result: '{"rows":20}' }))).toBe('→ {"rows":20}');
    expect(outcomeText(row({ state: 'succeeded' }))).toBe('');
    expect(outcomeText(row({ state: 'running', endNanos: null }))).toBe('');
  });
});
