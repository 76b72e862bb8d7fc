import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpanRing } from './span-ring.ts';

interface Span {
  worker: number;
  start: number;
  end: number;
  job: number;
  task: number;
  split: number;
  level: number;
  outcome: number;
  cls: string;
}

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const spanArb: fc.Arbitrary<Span> = fc.record({
  worker: fc.integer({ min: -1, max: 64 }),
  start: fc.double({ noNaN: true }),
  end: fc.double({ noNaN: true }),
  job: int32,
  task: int32,
  split: int32,
  level: fc.integer({ min: 0, max: 127 }),
  outcome: fc.integer({ min: 0, max: 4 }),
  cls: fc.constantFrom('a', 'b', 'c', 'd'),
});

type Op =
  | { kind: 'record'; span: Span }
  | { kind: 'read'; back: number; limit: number }
  | { kind: 'clear' };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 30, arbitrary: spanArb.map((span) => ({ kind: 'record' as const, span })) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      back: fc.integer({ min: 0, max: 40 }),
      limit: fc.integer({ min: 0, max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

/** The span at slot `i` of every column, read back as the model's shape. */
function spanAt(r: SpanRing, i: number): Span {
  return {
    worker: r.worker[i]!,
    start: r.start[i]!,
    end: r.end[i]!,
    job: r.job[i]!,
    task: r.task[i]!,
    split: r.split[i]!,
    level: r.level[i]!,
    outcome: r.outcome[i]!,
    cls: r.className(r.cls[i]!),
  };
}

describe('SpanRing against a plain array of every span recorded', () => {
  it('holds the newest `capacity` spans in order, counts the rest, and reads by cursor', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(opArb, { maxLength: 150, size: 'max' }),
        (cap, ops) => {
          const ring = new SpanRing(cap);
          let model: Span[] = [];
          let seq = 0;
          for (const op of ops) {
            if (op.kind === 'record') {
              // Each span's `split` is its sequence number, so a span out of place cannot pass
              // for another that happens to be equal.
              const s = { ...op.span, split: seq++ };
              const cls = ring.internClass(s.cls);
              ring.record(
                s.worker,
                s.start,
                s.end,
                s.job,
                s.task,
                s.split,
                s.level,
                s.outcome,
                cls,
              );
              // Past its name limit a ring files a class under (other): the model follows it.
              model.push({ ...s, cls: ring.className(cls) });
            } else if (op.kind === 'clear') {
              ring.clear();
              model = [];
            } else {
              const from = Math.max(0, model.length - op.back);
              const held = Math.max(from, model.length - cap, model.length - op.limit);
              const read = ring.read(from, op.limit);
              const want = model.slice(held);
              const c = read.columns;
              expect(read.cursor).toBe(model.length);
              expect(read.dropped).toBe(held - from);
              expect(c.count).toBe(want.length);
              expect(
                want.map((_, k) => ({
                  worker: c.worker[k],
                  start: c.start[k],
                  end: c.end[k],
                  job: c.job[k],
                  task: c.task[k],
                  split: c.split[k],
                  level: c.level[k],
                  outcome: c.outcome[k],
                  cls: c.names[c.cls[k]!],
                })),
              ).toEqual(want);
              // A read's name table holds each class it uses once, in order of first use.
              expect(c.names).toEqual([...new Set(want.map((s) => s.cls))]);
            }
            const kept = model.slice(Math.max(0, model.length - cap));
            expect([ring.total, ring.size, ring.dropped, ring.oldest]).toEqual([
              model.length,
              kept.length,
              model.length - kept.length,
              model.length - kept.length,
            ]);
            expect(kept.map((_, k) => spanAt(ring, ring.slot(k)))).toEqual(kept);
            for (let n = ring.oldest; n < ring.total; n++)
              expect(spanAt(ring, ring.slotAt(n))).toEqual(model[n]);
            for (const from of [0, Math.floor(model.length / 2), model.length])
              expect(ring.droppedSince(from)).toBe(Math.max(0, model.length - cap - from));
          }
        },
      ),
    );
  });

  it('interns at most min(1024, capacity) class names; later ones share (other)', () => {
    const small = new SpanRing(4);
    expect(['a', 'b', 'c', 'd', 'e'].map((n) => small.internClass(n))).toEqual([0, 1, 2, 3, 3]);
    expect(small.className(3)).toBe('(other)');
    expect(small.internClass('a')).toBe(0);
    const big = new SpanRing(1 << 16);
    for (let i = 0; i < 2000; i++) big.internClass(`class-${i}`);
    expect(big.internClass('(other)')).toBe(1023);
    expect(big.className(1023)).toBe('(other)');
    expect(big.className(1024)).toBe('');
  });

  it('rejects a capacity that is not an integer >= 0', () => {
    expect(() => new SpanRing(-1)).toThrow(/capacity/);
    expect(() => new SpanRing(2.5)).toThrow(/capacity/);
  });
});
