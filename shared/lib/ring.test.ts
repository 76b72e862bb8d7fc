import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ring } from './ring.ts';

describe('Ring', () => {
  it('never holds more than its capacity and keeps the newest items in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer(), { maxLength: 300 }),
        (cap, xs) => {
          const r = new Ring<number>(cap);
          for (const x of xs) r.push(x);
          expect(r.size).toBe(Math.min(cap, xs.length));
          expect(r.toArray()).toEqual(xs.slice(Math.max(0, xs.length - cap)));
          expect(r.last()).toBe(xs.at(-1));
        },
      ),
    );
  });

  it('tail returns the newest n oldest-first', () => {
    const r = new Ring<number>(4);
    for (let i = 1; i <= 6; i++) r.push(i);
    expect(r.tail(2)).toEqual([5, 6]);
    expect(r.tail(10)).toEqual([3, 4, 5, 6]);
    expect(r.at(-1)).toBeUndefined();
    expect(r.at(4)).toBeUndefined();
  });

  it('rejects a capacity that is not an integer >= 0', () => {
    expect(() => new Ring(-1)).toThrow(/capacity/);
    expect(() => new Ring(1.5)).toThrow(/capacity/);
  });

  it('with capacity 0 holds nothing and counts every push as dropped', () => {
    const r = new Ring<number>(0);
    for (let i = 0; i < 3; i++) r.push(i);
    expect([r.size, r.total, r.dropped, r.toArray(), r.last()]).toEqual([0, 3, 3, [], undefined]);
  });

  it('a reader coming back with its cursor gets what is new and a count of what it missed', () => {
    const r = new Ring<number>(3);
    for (let i = 0; i < 2; i++) r.push(i);
    const cursor = r.total;
    for (let i = 2; i < 7; i++) r.push(i);
    expect(r.since(cursor)).toEqual([4, 5, 6]);
    expect(r.droppedSince(cursor)).toBe(2);
    const out: number[] = [];
    r.newest(2, out);
    expect(out).toEqual([6, 5]);
    expect(r.oldest()).toBe(4);
    r.clear();
    expect([r.size, r.total, r.toArray()]).toEqual([0, 0, []]);
  });

  it('with a budget, lets the oldest go past it, always holds the newest, and counts what went', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 200 }),
        (cap, budget, costs) => {
          const r = new Ring<number>(cap, { cost: (x) => x, budget });
          costs.forEach((c) => r.push(c));
          // The newest items whose costs fit (at least the newest one), within the capacity.
          let n = 0;
          let sum = 0;
          for (let i = costs.length - 1; i >= 0 && n < cap; i--) {
            if (n > 0 && sum + costs[i]! > budget) break;
            sum += costs[i]!;
            n++;
          }
          expect(r.toArray()).toEqual(costs.slice(costs.length - n));
          expect(r.cost).toBe(sum);
          expect(r.dropped).toBe(costs.length - n);
          expect(r.droppedSince(0)).toBe(costs.length - n);
          expect(r.since(r.total - 1)).toEqual(costs.slice(-1));
        },
      ),
    );
  });
});
