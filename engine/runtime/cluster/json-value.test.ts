import { describe, expect, it } from 'vitest';
import {
  jsonFault,
  MAX_JSON_CHARS,
  MAX_JSON_DEPTH,
  MAX_ZERO_PLACES,
  restoreZeros,
  sendCheck,
} from './json-value.ts';

describe('jsonFault: what a JSON round trip through Redis would change', () => {
  it('passes what JSON carries as itself', () => {
    const shared = { n: 1 };
    for (const value of [
      undefined,
      null,
      true,
      0,
      -1.5,
      '',
      'text',
      [],
      [1, 'a', null, [false]],
      { a: 1, b: { c: [1, 2, { d: 'e' }] } },
      { dropped: undefined }, // dropped, and read back as undefined
      Object.create(null) as object,
      { twice: [shared, shared] }, // the same object twice is not a cycle
    ]) {
      expect(jsonFault(value, 'input')).toBeNull();
      if (value !== undefined) expect(JSON.parse(JSON.stringify(value))).toEqual(value);
    }
  });

  it('names the place and what is there for anything JSON would change or refuse', () => {
    expect(jsonFault(10n, 'result')).toBe('result is a bigint');
    expect(jsonFault({ total: { n: 1n } }, 'result')).toBe('result.total.n is a bigint');
    expect(jsonFault([1, () => 2], 'state')).toBe('state[1] is a function');
    expect(jsonFault({ s: Symbol('x') }, 'input')).toBe('input.s is a symbol');
    expect(jsonFault({ 'a b': NaN }, 'input')).toBe('input["a b"] is NaN (JSON makes it null)');
    expect(jsonFault([Infinity], 'input')).toBe('input[0] is Infinity (JSON makes it null)');
    expect(jsonFault([1, undefined], 'input')).toBe('input[1] is undefined (JSON makes it null)');
    expect(jsonFault({ m: new Map() }, 'input')).toBe(
      'input.m is a Map, not a plain object or array',
    );
    expect(jsonFault(new Date(0), 'input')).toBe('input is a Date, not a plain object or array');
    expect(jsonFault({ b: Buffer.from('x') }, 'input')).toBe(
      'input.b is a Buffer, not a plain object or array',
    );
    class Point {
      x = 1;
    }
    expect(jsonFault(new Point(), 'input')).toBe('input is a Point, not a plain object or array');
  });

  it('refuses a value that contains itself, and one nested past the depth limit, without overflowing', () => {
    const loop: { next?: unknown } = {};
    loop.next = { back: loop };
    expect(jsonFault(loop, 'state')).toBe('state.next.back contains itself');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonFault(deep, 'input')).toMatch(
      new RegExp(`^input(\\[0\\]){${MAX_JSON_DEPTH}} nests deeper than ${MAX_JSON_DEPTH} levels$`),
    );
    let ok: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) ok = [ok];
    expect(jsonFault(ok, 'input')).toBeNull();
  });

  it('says so when the value cannot be read', () => {
    const trap = {
      get boom(): never {
        throw new Error('no');
      },
    };
    expect(jsonFault(trap, 'result')).toBe('result cannot be read: no');
  });

  it('refuses a value whose JSON text would pass the limit, however it is made up', () => {
    // Two halves of V8's longest string used to make BullMQ's add throw, for good.
    const half = 'x'.repeat(MAX_JSON_CHARS / 2);
    const over = `input is larger than ${MAX_JSON_CHARS} characters as JSON (the cluster's limit)`;
    expect(jsonFault([half, half], 'input')).toBe(over);
    expect(jsonFault('x'.repeat(MAX_JSON_CHARS), 'input')).toBe(over);
    expect(jsonFault({ a: half, b: { c: half } }, 'input')).toBe(over);
    // Many small members count as well as one long one: quotes, keys, commas and digits.
    const numbers = Array.from({ length: MAX_JSON_CHARS / 16 }, () => 123_456_789_012_345);
    expect(JSON.stringify(numbers).length).toBeGreaterThan(MAX_JSON_CHARS);
    expect(jsonFault(numbers, 'input')).toBe(over);
    // Just under it passes, the JSON text itself no longer than counted.
    const under = ['x'.repeat(MAX_JSON_CHARS - 100)];
    expect(jsonFault(under, 'input')).toBeNull();
    expect(JSON.stringify(under).length).toBeLessThanOrEqual(MAX_JSON_CHARS);
    expect(jsonFault({ n: -12.5, t: true, z: null, s: ['ab'] }, 'input')).toBeNull();
  });
});

describe('-0 on the cluster: sent beside the value, put back where it was', () => {
  it('round-trips every -0 through JSON, and nothing else', () => {
    for (const value of [-0, [-0, 0, 1], { a: { 'b c': [0, -0] }, z: 0 }, [[[-0]]]]) {
      const checked = sendCheck(value, 'result', 'result');
      expect(checked.error).toBeNull();
      const back = restoreZeros(JSON.parse(JSON.stringify(value)), checked.zeros);
      expect(back).toStrictEqual(value); // toStrictEqual tells -0 from 0
      expect(Object.is(back, value) || typeof value === 'object').toBe(true);
    }
    expect(sendCheck({ a: 0 }, 'result', 'result').zeros).toBeUndefined();
  });

  it('leaves alone a place a sender named that holds no 0 (the list is not trusted)', () => {
    const value = { a: 1, list: [2], o: { b: 0 } };
    const back = restoreZeros(value, [
      ['a'],
      ['list', 0],
      ['missing', 'x'],
      ['o', 'b', 'c'],
      'x',
      [{}],
      ['__proto__'],
    ]);
    expect(back).toStrictEqual({ a: 1, list: [2], o: { b: 0 } });
    expect(restoreZeros(5, [[]])).toBe(5);
    expect(restoreZeros({}, 'not a list')).toStrictEqual({});
  });

  it('refuses a value with more -0 places than the limit, before keeping them all', () => {
    const many = new Array<number>(MAX_ZERO_PLACES + 1).fill(-0);
    expect(sendCheck(many, 'input', 'input').error).toBe(
      `input cannot be sent: input[${MAX_ZERO_PLACES}] holds more than ${MAX_ZERO_PLACES} -0 values (each travels beside the JSON) (on the cluster values travel as JSON)`,
    );
    expect(sendCheck(many.slice(1), 'input', 'input').zeros).toHaveLength(MAX_ZERO_PLACES);
    // Deep places use up the size limit first: refused as too large, not kept.
    let deep: unknown = new Array<number>(1_000_000).fill(-0);
    for (let i = 0; i < 120; i++) deep = { k: deep };
    expect(sendCheck(deep, 'input', 'input').error).toMatch(/larger than|more than/);
  });
});
