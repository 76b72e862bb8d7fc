// How a frame takes the figures that pass over every live run: a step of a pass a frame, the last
// finished pass's figures carried until the next finishes (a served console stalled a service's
// event loop 60–400 ms a pass with 100,000 runs queued).
import { describe, expect, it } from 'vitest';
import type { Steps, WorkBudget } from '../../core/graph/steps.ts';
import {
  PopulationCache,
  UNITS_PER_FRAME,
  type FiguresKey,
  type PopulationFigures,
} from './population-figures.ts';

function figures(n: number): PopulationFigures {
  const table = { byClass: {}, byBand: {} };
  return {
    wait: table,
    queued: table,
    oldestWaitMs: n,
    figuresAtNanos: n,
    fairness: { jain: 1, jobs: n },
    warnings: [],
    warningsMore: 0,
  };
}

/**
 * Passes over `units` units that number their figures 1, 2, …: in steps of the budget given, or
 * in one piece. Records each pass's budget.
 */
function passes(units: () => number) {
  let taken = 0;
  const budgets: (number | null)[] = [];
  function* pass(budget?: WorkBudget): Steps<PopulationFigures> {
    budgets.push(budget === undefined ? null : UNITS_PER_FRAME);
    for (let i = 0; i < units(); i++) if (budget?.spend() === true) yield;
    return figures(++taken);
  }
  return { pass, budgets, taken: () => taken };
}

describe('the figures over every live run', () => {
  const config = {};
  const key: FiguresKey = { policy: 'mlfq', config, statsSince: 0, weightsVersion: 0 };

  it('are taken afresh every frame while a pass fits one frame’s step', () => {
    const cache = new PopulationCache();
    const p = passes(() => 100);
    const seen: number[] = [];
    for (let frame = 0; frame < 10; frame++) seen.push(cache.get(key, true, p.pass).oldestWaitMs);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The first frame's in one piece (nothing to carry yet), then a step each.
    expect(p.budgets).toEqual([null, ...Array(9).fill(UNITS_PER_FRAME)]);
  });

  it('are spread over frames with many live, a finished pass’s carried until the next finishes', () => {
    const cache = new PopulationCache();
    // Five frames' worth: the budget runs out five times, the sixth step finishes.
    const p = passes(() => 5 * UNITS_PER_FRAME);
    const seen: number[] = [];
    for (let frame = 0; frame < 13; frame++) seen.push(cache.get(key, true, p.pass).oldestWaitMs);
    // Frame 0 in one piece; frames 1–6 are the next pass's six steps, 7–12 the one after.
    expect(seen).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3]);
    expect(p.taken()).toBe(3);
  });

  it('begin a new pass at a policy switch or a new config, and a snapshot carries the frames’ own', () => {
    const cache = new PopulationCache();
    // A pass of three frames' worth: three steps pause, the fourth finishes.
    const p = passes(() => 3 * UNITS_PER_FRAME);
    const get = (k: FiguresKey, consume = true) => cache.get(k, consume, p.pass).oldestWaitMs;
    expect(get(key)).toBe(1); // in one piece: nothing to carry yet
    expect(get(key)).toBe(1); // a pass begun
    expect(get(key)).toBe(1);
    // A policy switch drops the pass begun (its figures are the old policy's) and begins another.
    const fair = { ...key, policy: 'fair' };
    expect([get(fair), get(fair), get(fair), get(fair)]).toEqual([1, 1, 1, 2]);
    const other = { ...fair, config: {} };
    expect([get(other), get(other), get(other), get(other)]).toEqual([2, 2, 2, 3]);
    // A snapshot takes no step and no pass of its own: it carries what the frames carry.
    get(other);
    expect(get(other, false)).toBe(3);
    expect(p.taken()).toBe(3);
    expect(p.budgets.filter((b) => b === null)).toHaveLength(1);
  });

  it('are taken afresh at once after a reset of the tables or new tenant weights', () => {
    const cache = new PopulationCache();
    const p = passes(() => 3 * UNITS_PER_FRAME);
    const get = (k: FiguresKey) => cache.get(k, true, p.pass).oldestWaitMs;
    expect(get(key)).toBe(1);
    expect(get(key)).toBe(1); // a pass begun: dropped below
    expect(get({ ...key, statsSince: 5 })).toBe(2);
    expect(get({ ...key, statsSince: 5, weightsVersion: 1 })).toBe(3);
    expect(p.budgets.filter((b) => b === null)).toHaveLength(3);
  });

  it('come from a pass that finishes at once when the new key has few runs live', () => {
    const cache = new PopulationCache();
    const p = passes(() => 10);
    expect(cache.get(key, true, p.pass).oldestWaitMs).toBe(1);
    expect(cache.get({ ...key, policy: 'fair' }, true, p.pass).oldestWaitMs).toBe(2);
  });
});
