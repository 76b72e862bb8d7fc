import { describe, expect, it } from 'vitest';
import type { ExecSplit } from './records.ts';
import { SplitBook } from './split-book.ts';

/** The fields `remove` reads, of a split of job `jobId` running `kernel`. */
function split(id: number, jobId: number, kernel: ExecSplit['work']['kernel']): ExecSplit {
  return { id, job: { id: jobId }, work: { kernel, totalNanos: 0 } } as unknown as ExecSplit;
}

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

  it("is remembered when a user module's split ends, not a built-in kernel's", () => {
    const book = new SplitBook();
    const module = split(1, 11, { module: 'file:///task.mjs' });
    const kernel = split(2, 12, 'spin');
    book.splits.set(1, module);
    book.splits.set(2, kernel);
    expect(book.jobOf(1)).toBe(11); // live
    book.remove(module);
    book.remove(kernel);
    expect(book.splits.get(1)).toBeUndefined();
    expect(book.jobOf(1)).toBe(11); // ended, still known
    expect(book.jobOf(2)).toBeUndefined();
  });
});
