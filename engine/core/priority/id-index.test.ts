// The queue's id → slot index must behave exactly like a Map over any ids, whichever home (the
// integer hash table or the Map behind it) an id lands in, through growth and shrinking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index.ts';
import type { TaskId } from './queued-task.ts';

const id: fc.Arbitrary<TaskId> = fc.oneof(
  fc.integer({ min: 0, max: 300 }), // dense counters: long probe runs after wrap-around
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, -(2 ** 40), -0),
  fc.integer({ min: 0, max: 40 }).map((i) => i * 1024), // one stride, many shared low bits
  fc.constantFrom(1.5, Number.NaN, Infinity, 2 ** 53),
  fc.constantFrom('a', 'b', '7', ''),
);

type Op = { kind: 'add' | 'move' | 'delete' | 'get'; id: TaskId; slot: number };
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('add', 'add', 'move', 'delete', 'delete', 'get'),
  id,
  slot: fc.integer({ min: 0, max: 1 << 20 }),
});

describe('IdIndex', () => {
  it('matches a Map under random add / move / delete / get, ids of every kind', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
        const index = new IdIndex();
        const model = new Map<TaskId, number>();
        for (const { kind, id, slot } of ops) {
          if (kind === 'add') {
            expect(index.add(id, slot)).toBe(!model.has(id));
            if (!model.has(id)) model.set(id, slot);
          } else if (kind === 'move') {
            if (!model.has(id)) continue; // only ever called for an indexed id
            index.move(id, slot);
            model.set(id, slot);
          } else if (kind === 'delete') {
            expect(index.delete(id)).toBe(model.delete(id));
          }
          expect(index.get(id)).toBe(model.get(id) ?? -1);
          expect(index.size).toBe(model.size);
        }
        for (const [key, slot] of model) expect(index.get(key)).toBe(slot);
      }),
      { numRuns: 300 },
    );
  });

  it('finds every id through growth and after shrinking back, counters and strides alike', () => {
    const index = new IdIndex();
    const ids = Array.from({ length: 20_000 }, (_, i) => (i % 2 === 0 ? i : 2 ** 33 + i * 4096));
    ids.forEach((key, slot) => expect(index.add(key, slot)).toBe(true));
    expect(index.size).toBe(ids.length);
    for (let i = 0; i < ids.length; i += 3) expect(index.get(ids[i]!)).toBe(i);
    for (let i = 0; i < ids.length - 10; i++) expect(index.delete(ids[i]!)).toBe(true);
    expect(index.size).toBe(10);
    for (let i = ids.length - 10; i < ids.length; i++) expect(index.get(ids[i]!)).toBe(i);
    expect(index.get(ids[0]!)).toBe(-1);
  });

  it('keeps a sliding window of counter ids, and two interleaved counters, all findable', () => {
    const index = new IdIndex();
    const model = new Map<number, number>();
    for (let i = 0; i < 30_000; i++) {
      // Counter A slides a window of 500 live ids; counter B (far away) interleaves with it.
      for (const key of [i, 5_000_000 + 3 * i]) {
        expect(index.add(key, i)).toBe(true);
        model.set(key, i);
      }
      if (i >= 500) {
        for (const key of [i - 500, 5_000_000 + 3 * (i - 500)]) {
          expect(index.delete(key)).toBe(true);
          model.delete(key);
        }
      }
    }
    expect(index.size).toBe(model.size);
    for (const [key, slot] of model) expect(index.get(key)).toBe(slot);
    expect(index.get(0)).toBe(-1);
  });

  it('treats -0 and 0 as one id, as a Map does', () => {
    const index = new IdIndex();
    expect(index.add(0, 1)).toBe(true);
    expect(index.add(-0, 2)).toBe(false);
    expect(index.get(-0)).toBe(1);
    expect(index.delete(-0)).toBe(true);
    expect(index.size).toBe(0);
  });

  it('clear forgets every id', () => {
    const index = new IdIndex();
    for (let i = 0; i < 500; i++) index.add(i, i);
    index.add('job', 7);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.get(3)).toBe(-1);
    expect(index.get('job')).toBe(-1);
  });
});
