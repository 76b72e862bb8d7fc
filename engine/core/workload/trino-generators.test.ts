import { describe, expect, it } from 'vitest';
import { createRng } from '../../../shared/lib/rng.ts';
import {
  generateSplit,
  leafPerCallNanos,
  leafTotalNanos,
  simpleSplit,
} from './trino-generators.ts';

const S = 1e9;
const MS = 1e6;

function draw(n: number, f: () => number): number[] {
  return Array.from({ length: n }, f);
}

describe("Trino's split generators", () => {
  it('leaf totals follow the band probabilities (about half are 1–10 s)', () => {
    const rng = createRng(11);
    const xs = draw(20_000, () => leafTotalNanos(rng));
    const share = (lo: number, hi: number) =>
      xs.filter((x) => x >= lo && x < hi).length / xs.length;
    expect(share(1 * S, 10 * S)).toBeCloseTo(0.45, 1);
    expect(share(1 * MS, 10 * MS)).toBeCloseTo(0.1, 1);
    expect(Math.max(...xs)).toBeLessThan(10 * 60 * S);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(1 * MS);
  });

  it('fast-leaf stays at or under 10 s total, slow-leaf at or over 1 s', () => {
    const rng = createRng(2);
    for (let i = 0; i < 5000; i++) {
      expect(generateSplit(rng, 'fast-leaf').totalNanos).toBeLessThan(10 * S);
      expect(generateSplit(rng, 'slow-leaf').totalNanos).toBeGreaterThanOrEqual(1 * S);
    }
  });

  it('l4-leaf is 1–10 min with calls of at most 2 s; quanta-exceeding calls are 1–200 s', () => {
    const rng = createRng(5);
    for (let i = 0; i < 2000; i++) {
      const good = generateSplit(rng, 'l4-leaf');
      expect(good.totalNanos).toBeGreaterThanOrEqual(60 * S);
      expect(good.perCallNanos).toBeLessThanOrEqual(2 * S);
      const bad = generateSplit(rng, 'quanta-exceeding');
      expect(bad.perCallNanos).toBeGreaterThanOrEqual(1 * S);
      expect(bad.perCallNanos).toBeLessThanOrEqual(200 * S);
    }
  });

  it('per-call draws include the 250–500 µs band and the fixed 200 s band', () => {
    const rng = createRng(9);
    expect(leafPerCallNanos(rng, 0.9999, 1)).toBe(200 * S);
    const tiny = leafPerCallNanos(rng, 0, 0.1);
    expect(tiny).toBeGreaterThanOrEqual(250_000);
    expect(tiny).toBeLessThan(500_000);
  });

  it('intermediate splits finish in about numQuanta calls and block 97–99 % of their wall time', () => {
    const rng = createRng(4);
    for (let i = 0; i < 2000; i++) {
      const s = generateSplit(rng, 'intermediate');
      const calls = Math.ceil(s.totalNanos / s.perCallNanos);
      expect(calls).toBeGreaterThanOrEqual(1);
      expect(calls).toBeLessThanOrEqual(20_000);
      const blockedTotal = (s.blockedNanosPerCall ?? 0) * calls;
      expect(blockedTotal).toBeLessThanOrEqual(800 * S);
    }
  });

  it('simple splits never have a call longer than the split', () => {
    expect(simpleSplit(4 * 60 * S, S)).toEqual({ totalNanos: 240 * S, perCallNanos: S });
    expect(simpleSplit(MS, S).perCallNanos).toBe(MS);
  });
});
