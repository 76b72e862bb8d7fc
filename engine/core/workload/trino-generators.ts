/**
 * Trino's `SplitGenerators` (docs/design.md §9), as pure functions of a seeded Rng.
 * Every draw is "u uniform in [origin, bound), then a value uniform in the range that u selects",
 * exactly like `ThreadLocalRandom.nextDouble(origin, bound)` / `nextLong(lo, hi)` in Trino.
 *
 * Intermediate splits implement the evident intent (`numQuanta` calls of `scheduled / numQuanta`
 * separated by blocks of `blocked / numQuanta`), not Trino's swapped constructor arguments.
 */
import type { TrinoGeneratorName } from '../../../shared/workload.ts';
import { type Rng, uniform, uniformInt } from '../../../shared/lib/rng.ts';

const US = 1_000;
const MS = 1_000_000;
const S = 1_000_000_000;
const MIN = 60 * S;

/** A split's cost as the executor sees it (ns); kernels are chosen by the workload, not here. */
export interface SplitCost {
  readonly totalNanos: number;
  readonly perCallNanos: number;
  readonly blockedNanosPerCall?: number;
}

type Band = readonly [threshold: number, lo: number, hi: number];

/** Picks the first band whose threshold u exceeds (bands are in descending order). */
function pick(rng: Rng, origin: number, bound: number, bands: readonly Band[], last: Band): number {
  const u = uniform(rng, origin, bound);
  const band = bands.find(([threshold]) => u > threshold) ?? last;
  return band[1] === band[2] ? band[1] : uniformInt(rng, band[1], band[2]);
}

const LEAF_TOTAL: readonly Band[] = [
  [0.998, 5 * MIN, 10 * MIN],
  [0.99, 1 * MIN, 5 * MIN],
  [0.95, 10 * S, 1 * MIN],
  [0.5, 1 * S, 10 * S],
  [0.25, 100 * MS, 1 * S],
  [0.1, 10 * MS, 100 * MS],
];
const LEAF_TOTAL_LAST: Band = [0, 1 * MS, 10 * MS];

const LEAF_PER_CALL: readonly Band[] = [
  [0.9999, 200 * S, 200 * S],
  [0.99, 3 * S, 15 * S],
  [0.95, 2 * S, 5 * S],
  [0.9, 1500 * MS, 5 * S],
  [0.75, 1 * S, 2 * S],
  [0.5, 500 * MS, 1 * S],
  [0.1, 100 * MS, 500 * MS],
];
const LEAF_PER_CALL_LAST: Band = [0, 250 * US, 500 * US];

const INTER_QUANTA: readonly Band[] = [
  [0.95, 2000, 20_000],
  [0.9, 1000, 2000],
];
const INTER_QUANTA_LAST: Band = [0, 10, 1000];

const INTER_WALL: readonly Band[] = [
  [0.9, 400 * S, 800 * S],
  [0.75, 100 * S, 200 * S],
  [0.5, 50 * S, 100 * S],
  [0.4, 30 * S, 50 * S],
  [0.3, 20 * S, 30 * S],
  [0.2, 10 * S, 15 * S],
  [0.1, 5 * S, 10 * S],
];
const INTER_WALL_LAST: Band = [0, 1 * S, 5 * S];

const INTER_SCHEDULED: readonly Band[] = [
  [0.999, 5 * MIN, 10 * MIN],
  [0.99, 1 * MIN, 5 * MIN],
  [0.95, 10 * S, 1 * MIN],
  [0.75, 1 * S, 10 * S],
  [0.45, 100 * MS, 1 * S],
  [0.2, 10 * MS, 100 * MS],
];
const INTER_SCHEDULED_LAST: Band = [0, 1 * MS, 10 * MS];

export function leafTotalNanos(rng: Rng, origin = 0, bound = 1): number {
  return pick(rng, origin, bound, LEAF_TOTAL, LEAF_TOTAL_LAST);
}

export function leafPerCallNanos(rng: Rng, origin = 0, bound = 1): number {
  return pick(rng, origin, bound, LEAF_PER_CALL, LEAF_PER_CALL_LAST);
}

export function intermediateScheduledNanos(rng: Rng): number {
  return pick(rng, 0, 1, INTER_SCHEDULED, INTER_SCHEDULED_LAST);
}

export function intermediateWallNanos(rng: Rng): number {
  return pick(rng, 0, 1, INTER_WALL, INTER_WALL_LAST);
}

/** u ranges (total, per call) of the leaf generators (the table in docs/design.md §9). */
const LEAF_RANGES: Record<
  Exclude<TrinoGeneratorName, 'intermediate'>,
  [number, number, number, number]
> = {
  aggregated: [0, 1, 0, 1],
  'fast-leaf': [0, 0.75, 0, 1],
  'slow-leaf': [0.75, 1, 0, 1],
  'l4-leaf': [0.99, 1, 0, 0.9],
  'quanta-exceeding': [0.99, 1, 0.75, 1],
};

function leafSplit(rng: Rng, name: keyof typeof LEAF_RANGES): SplitCost {
  const [t0, t1, p0, p1] = LEAF_RANGES[name];
  const totalNanos = leafTotalNanos(rng, t0, t1);
  const perCallNanos = leafPerCallNanos(rng, p0, p1);
  // A call runs min(remaining, perCall); a per-call longer than the total is one call.
  return { totalNanos, perCallNanos: Math.min(totalNanos, perCallNanos) };
}

function intermediateSplit(rng: Rng): SplitCost {
  const numQuanta = pick(rng, 0, 1, INTER_QUANTA, INTER_QUANTA_LAST);
  const wallNanos = intermediateWallNanos(rng);
  const scheduledNanos = intermediateScheduledNanos(rng);
  const blockedNanos = Math.floor(wallNanos * uniform(rng, 0.97, 0.99));
  return {
    totalNanos: scheduledNanos,
    perCallNanos: Math.max(1, Math.ceil(scheduledNanos / numQuanta)),
    blockedNanosPerCall: Math.floor(blockedNanos / numQuanta),
  };
}

/** One split drawn from the named generator. */
export function generateSplit(rng: Rng, name: TrinoGeneratorName): SplitCost {
  return name === 'intermediate' ? intermediateSplit(rng) : leafSplit(rng, name);
}

/** Trino's `SimpleLeafSplitGenerator(total, perCall)`: every split the same. */
export function simpleSplit(totalNanos: number, perCallNanos: number): SplitCost {
  return { totalNanos, perCallNanos: Math.min(totalNanos, perCallNanos) };
}
