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

  it('are taken afresh at a policy switch, a reset of the tables, a new config or new weights, and a snapshot’s are carried on', () => {
    const cache = new PopulationCache();
    const p = passes(() => 3 * UNITS_PER_FRAME);
    const get = (k: FiguresKey, consume = true) => cache.get(k, consume, p.pass).oldestWaitMs;
    expect(get(key)).toBe(1);
    expect(get(key)).toBe(1); // a pass begun, a step taken
    // A pass dropped never finishes: the figures number the finished ones.
    expect(get({ ...key, policy: 'fair' })).toBe(2);
    expect(get({ ...key, policy: 'fair', statsSince: 5 })).toBe(3);
    expect(get({ ...key, policy: 'fair', statsSince: 5, config: {} })).toBe(4);
    const k = { ...key, policy: 'fair', statsSince: 5, config };
    expect(get(k)).toBe(5);
    expect(get({ ...k, weightsVersion: 1 })).toBe(6);
    const w = { ...k, weightsVersion: 1 };
    expect(get(w)).toBe(6); // a pass begun
    // A snapshot for a new client is taken now; the pass begun before it is dropped (its
    // figures, older, would step back), and the frames after carry the snapshot's on.
    expect(get(w, false)).toBe(7);
    for (let i = 0; i < 3; i++) expect(get(w)).toBe(7);
    expect(get(w)).toBe(8);
  });
});
