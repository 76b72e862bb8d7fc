import { describe, expect, it } from 'vitest';
import { SplitBook } from './split-book.ts';

describe('SplitBook: the job of an ended user-module split, for a late notice', () => {
  it('is known for the last 4096 ended splits, newest kept, oldest forgotten', () => {
    const book = new SplitBook();
    for (let split = 1; split <= 4097; split++) book.rememberModuleSplit(split, 10_000 + split);
    expect(book.jobOf(1)).toBeUndefined(); // pushed out by the 4097th
    expect(book.jobOf(2)).toBe(10_002);
    expect(book.jobOf(4097)).toBe(14_097);
    expect(book.jobOf(5000)).toBeUndefined(); // never seen
  });

  it('is not confused by a split id of 0 before the ring has filled', () => {
    const book = new SplitBook();
    book.rememberModuleSplit(0, 7);
    expect(book.jobOf(0)).toBe(7);
    expect(book.jobOf(1)).toBeUndefined();
  });
});
