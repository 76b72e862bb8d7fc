import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedArray, nestsDeeperThan } from './bounds.ts';

/** `levels` arrays (or objects) one inside the next, around a number. */
function nested(levels: number, wrap: (v: unknown) => unknown = (v) => [v]): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = wrap(v);
  return v;
}

describe('boundedArray', () => {
  it('refuses an array past its limit before parsing one entry', () => {
    let parsed = 0;
    const item = z.custom(() => {
      parsed++;
      return true;
    });
    const result = boundedArray(item, 3).safeParse(new Array(1_000_000).fill({}));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([{ code: 'too_big', maximum: 3, path: [] }]);
    expect(parsed).toBe(0);
    expect(boundedArray(item, 3).safeParse([1, 2, 3]).success).toBe(true);
    expect(parsed).toBe(3);
  });

  it('keeps a least length when given one', () => {
    const list = boundedArray(z.number(), 2, 1);
    expect(list.safeParse([]).error?.issues).toMatchObject([{ code: 'too_small', minimum: 1 }]);
    expect(list.safeParse([1]).success).toBe(true);
    expect(boundedArray(z.number(), 2).safeParse([]).success).toBe(true);
  });
});

describe('nestsDeeperThan', () => {
  it('answers for a value 100,000 deep without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(100_000), 512)).toBe(true);
    expect(
      nestsDeeperThan(
        nested(100_000, (v) => ({ v })),
        512,
      ),
    ).toBe(true);
  });

  it('counts arrays and plain objects, up to the limit and one past it', () => {
    expect(nestsDeeperThan(nested(512), 512)).toBe(false);
    expect(nestsDeeperThan(nested(513), 512)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: 1 }], c: [] }, 3)).toBe(false);
    for (const flat of [undefined, null, 0, 'x', true])
      expect(nestsDeeperThan(flat, 0)).toBe(false);
  });

  it('finds the deep branch among wide shallow ones', () => {
    const wide = Array.from({ length: 10_000 }, () => ({ x: [1] }));
    wide.push({ x: nested(600) as number[] });
    expect(nestsDeeperThan(wide, 512)).toBe(true);
  });

  it('does not look into other objects, nor count a value containing itself as deeper', () => {
    expect(nestsDeeperThan([new Map([[1, nested(600)]])], 2)).toBe(false);
    expect(nestsDeeperThan([new Uint8Array(10)], 1)).toBe(false);
    const loop: Record<string, unknown> = {};
    loop['self'] = { back: loop };
    expect(nestsDeeperThan(loop, 2)).toBe(false);
    expect(nestsDeeperThan(loop, 1)).toBe(true);
  });

  it('walks a part shared at two depths again where it is deeper', () => {
    const part = [[1]]; // 2 deep
    expect(nestsDeeperThan({ near: part, far: [[part]] }, 4)).toBe(true);
    expect(nestsDeeperThan({ near: part, far: [[part]] }, 5)).toBe(false);
  });

  it('walks a part shared at many places once (a ladder of arrays each holding the next twice)', () => {
    // 250 rungs over 100,000 objects: 2^250 paths; walked again where deeper, it took 5.8 s.
    let rung: unknown[] = Array.from({ length: 100_000 }, () => ({}));
    for (let i = 0; i < 250; i++) rung = [[rung], rung];
    expect(nestsDeeperThan(rung, 512)).toBe(false);
    expect(nestsDeeperThan(rung, 501)).toBe(true); // 250 rungs of 2, the array, its objects
    expect(nestsDeeperThan(rung, 502)).toBe(false);
  });

  it('shows each array and plain object to its visitor once, a shared or self-containing one too', () => {
    const shared = { n: [1] };
    const value: unknown[] = [shared, shared, new Map([[1, [2]]])];
    value.push(value);
    const seen: object[] = [];
    expect(nestsDeeperThan(value, 512, (c) => seen.push(c))).toBe(false);
    expect(seen).toHaveLength(3); // value, shared, shared.n: not the Map nor what it holds
    expect(new Set(seen)).toEqual(new Set([value, shared, shared.n]));
  });
});
