import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexedHeap, type HeapNode } from './indexed-heap.ts';

interface Item extends HeapNode {
  key: number;
  seq: number;
}

const less = (a: Item, b: Item): boolean => a.key < b.key || (a.key === b.key && a.seq < b.seq);
const byOrder = (a: Item, b: Item): number => a.key - b.key || a.seq - b.seq;

type Op =
  | { kind: 'push'; key: number }
  | { kind: 'pop' }
  | { kind: 'remove'; pick: number }
  | { kind: 'rekey'; pick: number; key: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), key: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('pop' as const) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('rekey' as const),
    pick: fc.nat(),
    key: fc.integer({ min: 0, max: 20 }),
  }),
);

describe('IndexedHeap', () => {
  it('matches a sorted array under random push, pop, remove and key changes', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 200 }), (ops) => {
        const heap = new IndexedHeap<Item>(less);
        let model: Item[] = [];
        let seq = 0;
        for (const op of ops) {
          if (op.kind === 'push') {
            const item = { key: op.key, seq: seq++, heapIndex: -1 };
            heap.push(item);
            model.push(item);
          } else if (op.kind === 'pop') {
            model.sort(byOrder);
            expect(heap.pop()).toBe(model.shift());
          } else if (model.length > 0) {
            const item = model[op.pick % model.length]!;
            if (op.kind === 'remove') {
              expect(heap.remove(item)).toBe(true);
              expect(item.heapIndex).toBe(-1);
              expect(heap.remove(item)).toBe(false);
              model = model.filter((x) => x !== item);
            } else {
              item.key = op.key;
              heap.update(item);
            }
          }
          expect(heap.size).toBe(model.length);
          expect(heap.peek()).toBe([...model].sort(byOrder)[0]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
