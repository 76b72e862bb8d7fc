import { describe, expect, it } from 'vitest';
import { ROW_HEIGHT, visibleRows } from './job-table.tsx';

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
