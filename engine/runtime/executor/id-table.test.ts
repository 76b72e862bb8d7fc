import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.ts';

describe('IdTable', () => {
  it('behaves as a Map of increasing ids, whatever is deleted (model check)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), gap: fc.nat({ max: 3 }) }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('deleteOldest' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const table = new IdTable<{ id: number }>();
        const model = new Map<number, { id: number }>();
        let next = 1;
        for (const o of ops) {
          if (o.kind === 'add') {
            next += o.gap;
            const record = { id: next };
            table.set(next, record);
            model.set(next, record);
            next++;
          } else {
            const ids = [...model.keys()];
            if (ids.length === 0) continue;
            const id = o.kind === 'deleteOldest' ? ids[0]! : ids[o.pick % ids.length]!;
            expect(table.delete(id)).toBe(true);
            expect(table.delete(id)).toBe(false);
            model.delete(id);
          }
          expect(table.size).toBe(model.size);
        }
        expect([...table.values()]).toEqual([...model.values()]);
        for (let id = 0; id <= next; id++) expect(table.get(id)).toBe(model.get(id));
      }),
      { numRuns: 200 },
    );
  });

  it('stays small when one old record outlives a stream of short ones', () => {
    const table = new IdTable<number>();
    table.set(1, 1); // the long one
    for (let id = 2; id < 200_000; id++) {
      table.set(id, id);
      if (id > 11) table.delete(id - 10);
      if (id % 97 === 0)
        expect(table.kept).toBeLessThanOrEqual(Math.max(1024, 4 * table.size) + table.size + 1);
    }
    expect(table.size).toBe(11);
    expect(table.get(1)).toBe(1);
    expect([...table.values()]).toEqual([1, ...Array.from({ length: 10 }, (_, i) => 199_990 + i)]);
  });

  it('empties fully and starts again at any id', () => {
    const table = new IdTable<string>();
    table.set(5, 'a');
    table.delete(5);
    expect(table.kept).toBe(0);
    table.set(1_000_000, 'b');
    expect(table.kept).toBe(1);
    expect(table.get(1_000_000)).toBe('b');
    expect(table.get(5)).toBeUndefined();
  });
});
