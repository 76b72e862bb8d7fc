// A job row's result text: a BigInt of any size reads exactly as its full decimal text, cut to
// the row's limit (the long ones are cut without writing out every digit).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_ROW_TEXT_MAX } from '../../../shared/protocol.ts';
import { clip, resultText } from './job-text.ts';

function fullText(value: bigint, max: number): string {
  const text = `"${value}n"`;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

describe('resultText of a BigInt', () => {
  it('is its decimal text, cut where the whole text would be cut, at any size and sign', () => {
    const values: bigint[] = [0n, 7n, -7n];
    let f = 1n;
    for (let i = 1n; i <= 1000n; i++) {
      f *= i;
      if (i % 7n === 0n || i > 990n) values.push(f, -f, f - 1n);
    }
    for (let d = 190; d <= 205; d++) values.push(10n ** BigInt(d), 10n ** BigInt(d) - 1n);
    for (const max of [JOB_ROW_TEXT_MAX, 40, 3]) {
      for (const v of values) expect(resultText(v, max)).toBe(fullText(v, max));
    }
  });

  it('cuts factorial(1000) (2,568 digits) to the row limit with its leading digits', () => {
    let f = 1n;
    for (let i = 2n; i <= 1000n; i++) f *= i;
    const text = resultText(f);
    expect(text).toHaveLength(JOB_ROW_TEXT_MAX);
    expect(text.startsWith('"402387260077093773543702433923')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('resultText of a number', () => {
  it('reads as its JSON, non-finite ones as JSON writes them too', () => {
    const values = [0, -0, 42, -1.5, 0.1 + 0.2, 1e21, 5e-324, Number.MAX_VALUE, NaN, Infinity];
    for (const v of values) expect(resultText(v)).toBe(JSON.stringify(v));
    expect(resultText(123456789, 5)).toBe('1234…');
  });
});

describe('resultText of anything a worker can send back', () => {
  const asJson = (v: unknown, max: number) => {
    const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
    return text === undefined ? undefined : clip(text, max);
  };

  it('is the value’s JSON (a BigInt as "<digits>n"), cut to the row', () => {
    const values = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withTypedArray: true,
      maxDepth: 4,
    });
    fc.assert(
      fc.property(values, fc.integer({ min: 2, max: 300 }), (v, max) => {
        const json = asJson(v, max);
        // Where JSON writes nothing the row shows String(v), as before.
        if (json !== undefined) expect(resultText(v, max)).toBe(json);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads no more of a large result than the row shows', () => {
    let read = 0;
    const big = new Array<unknown>(1_000_000);
    for (let i = 0; i < 1000; i++) {
      Object.defineProperty(big, i, { enumerable: true, get: () => (read++, i) });
    }
    const text = resultText(big);
    expect(text.startsWith('[0,1,2,3,')).toBe(true);
    expect(text).toHaveLength(JOB_ROW_TEXT_MAX);
    // Before: every element (1,000 getters here; an 8 MB Uint8Array held the thread 5 s).
    expect(read).toBeLessThan(100);
    const bytes = resultText(new Uint8Array(8 << 20));
    expect(bytes.startsWith('{"0":0,"1":0,')).toBe(true);
    expect(bytes).toHaveLength(JOB_ROW_TEXT_MAX);
  });
});
