/**
 * A small seeded PRNG (SplitMix32 → Mulberry32). Workload generation takes one of these as an
 * argument instead of calling `Math.random`, so the same seed always yields the same jobs, splits
 * and costs, on either backend.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
}

export function createRng(seed: number): Rng {
  // SplitMix32 scrambles the seed so nearby seeds (1, 2, 3…) give unrelated streams.
  let s = (Math.imul(seed | 0, 0x9e3779b9) ^ 0x85ebca6b) >>> 0;
  s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
  s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
  s = (s ^ (s >>> 16)) >>> 0;
  return { next: mulberry32(s) };
}

/**
 * mulberry32: a tiny, fast, seeded 32-bit PRNG, uniform in [0, 1). The simulator and the threads
 * backend's fault injection draw from it directly, so the same seed gives the same run.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform in [origin, bound) (Java's `nextDouble(origin, bound)`). */
export function uniform(rng: Rng, origin: number, bound: number): number {
  return origin + rng.next() * (bound - origin);
}

/** Uniform integer in [origin, bound) (Java's `nextLong(origin, bound)`); `origin` when empty. */
export function uniformInt(rng: Rng, origin: number, bound: number): number {
  if (bound <= origin) return origin;
  return origin + Math.floor(rng.next() * (bound - origin));
}

/** An independent stream derived from `rng`, so adding draws in one place keeps others stable. */
export function fork(rng: Rng): Rng {
  return createRng(Math.floor(rng.next() * 4294967296));
}
