// How often a frame passes over every live run: each frame with a few thousand live, less often
// with many (a served console stalled a service's event loop with 100,000 runs queued).
import { describe, expect, it } from 'vitest';
import {
  MAX_STALE_FRAMES,
  PopulationCache,
  RUNS_PER_FRAME,
  type FiguresKey,
  type PopulationFigures,
} from './population-figures.ts';

function figures(n: number): PopulationFigures {
  const table = { byClass: {}, byBand: {} };
  return {
    wait: table,
    queued: table,
    oldestWaitMs: n,
    fairness: { jain: 1, jobs: n },
    warnings: [],
    warningsMore: 0,
  };
}

describe('the figures over every live run', () => {
  const config = {};
  const key: FiguresKey = { policy: 'mlfq', config, statsSince: 0, weightsVersion: 0 };

  it('are taken every frame with few runs live, every ⌈N / 5,000⌉-th with N, at most every 20th', () => {
    for (const [live, every] of [
      [10, 1],
      [RUNS_PER_FRAME, 1],
      [RUNS_PER_FRAME + 1, 2],
      [100_000, 20],
      [2_000_000, MAX_STALE_FRAMES],
    ] as const) {
      const cache = new PopulationCache();
      let taken = 0;
      const seen: number[] = [];
      for (let frame = 0; frame < 60; frame++) {
        seen.push(cache.get(live, key, true, () => figures(++taken)).oldestWaitMs);
      }
      expect(taken, `${live} live`).toBe(Math.ceil(60 / every));
      // Carried over as they were, never mixed.
      expect(seen.slice(0, every)).toEqual(Array(every).fill(1));
    }
  });

  it('are taken afresh at a policy switch, a reset of the tables, a new config or new weights, and a snapshot’s are carried on', () => {
    const cache = new PopulationCache();
    let taken = 0;
    const get = (k: FiguresKey, consume = true) =>
      cache.get(100_000, k, consume, () => figures(++taken)).oldestWaitMs;
    expect(get(key)).toBe(1);
    expect(get(key)).toBe(1);
    expect(get({ ...key, policy: 'fair' })).toBe(2);
    expect(get({ ...key, policy: 'fair', statsSince: 5 })).toBe(3);
    expect(get({ ...key, policy: 'fair', statsSince: 5, config: {} })).toBe(4);
    const k = { ...key, policy: 'fair', statsSince: 5, config };
    expect(get(k)).toBe(5);
    expect(get({ ...k, weightsVersion: 1 })).toBe(6);
    // A snapshot for a new client is taken now; the frames after it carry its figures on (they
    // went back to the older ones before it).
    const w = { ...k, weightsVersion: 1 };
    expect(get(w, false)).toBe(7);
    expect(get(w)).toBe(7);
    expect(get({ ...w, config: {} })).toBe(8);
  });
});
