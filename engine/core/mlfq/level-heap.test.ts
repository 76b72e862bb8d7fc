import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeGroup } from '../ready-queue.ts';
import { compareEntries, LevelHeap, type LevelEntry } from './level-heap.ts';

type Entry = LevelEntry<number>;

const group = makeGroup('task');

function entry(split: number, levelPriority: number): Entry {
  return { split, group, level: 0, levelPriority, sequence: split, inHeap: false, queued: true };
}

/** Ops: push a fresh entry, pop the first, or remove a live one (lazily, as the queue does). */
const op = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), priority: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('pop' as const) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

describe('LevelHeap', () => {
  it('pops live entries in (levelPriority, sequence) order whatever was removed', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const heap = new LevelHeap<number>();
        const live: Entry[] = [];
        let next = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            const e = entry(next++, o.priority);
            heap.push(e);
            live.push(e);
          } else if (o.kind === 'pop') {
            live.sort(compareEntries);
            const expected = live.shift();
            const got = heap.pop();
            expect(got).toBe(expected);
            if (got !== undefined) got.queued = false;
          } else if (live.length > 0) {
            const [e] = live.splice(o.pick % live.length, 1);
            e!.queued = false; // the queue's index lowers the flag first
            heap.remove(e!);
          }
          expect(heap.size).toBe(live.length);
        }
        expect(heap.clear()).toEqual(live.sort(compareEntries));
        expect(heap.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('takes a long FIFO-like level in order across its sorted tail and the heap', () => {
    // Equal priorities in sequence order go to the sorted tail; a few lower ones to the heap. Far
    // more than the tail's cut size (4096) pass through, with removals in between.
    const heap = new LevelHeap<number>();
    const live = new Set<Entry>();
    let next = 0;
    const push = (priority: number) => {
      const e = entry(next++, priority);
      heap.push(e);
      live.add(e);
    };
    const popChecked = () => {
      const expected = [...live].sort(compareEntries)[0];
      const got = heap.pop();
      expect(got).toBe(expected);
      got!.queued = false;
      live.delete(got!);
    };
    for (let i = 0; i < 10_000; i++) push(i % 1000 === 999 ? 3 : 5);
    for (let i = 0; i < 100; i++) popChecked();
    const order: Entry[] = [];
    for (let i = 0; i < 6_000; i++) {
      const got = heap.pop()!;
      got.queued = false;
      live.delete(got);
      order.push(got);
    }
    expect(order).toEqual([...order].sort(compareEntries));
    for (let i = 0; i < 5_000; i++) push(i % 7 === 0 ? 4 : 6);
    let k = 0;
    for (const e of [...live]) {
      if (k++ % 3 !== 0) continue;
      e.queued = false;
      heap.remove(e);
      live.delete(e);
    }
    expect(heap.size).toBe(live.size);
    for (let i = 0; i < 50; i++) popChecked();
    const rest: Entry[] = [];
    for (let e = heap.pop(); e !== undefined; e = heap.pop()) rest.push(e);
    expect(rest).toEqual([...live].sort(compareEntries));
    expect(heap.size).toBe(0);
  });

  it('keeps tombstones bounded: removing most of a level compacts it', () => {
    const heap = new LevelHeap<number>();
    const entries = Array.from({ length: 10_000 }, (_, i) => entry(i, i % 97));
    for (const e of entries) heap.push(e);
    for (const e of entries.slice(0, 9_000)) {
      e.queued = false;
      heap.remove(e);
    }
    expect(heap.size).toBe(1_000);
    // Compacted on the way: the removed entries left the array and can be queued anew.
    expect(entries.slice(0, 9_000).filter((e) => e.inHeap).length).toBeLessThanOrEqual(1_000);
    const first = heap.pop()!;
    expect(first.split).toBe(9_021); // the first live entry of priority 0 (9021 % 97 = 0)
  });
});
