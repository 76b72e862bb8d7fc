// Trino's SplitConcurrencyController, tested as its TestSplitConcurrencyController describes it
// (testRampup, testRampdown, testRapidAdjustForQuickSplits), with scenarios of our own.
import { describe, expect, it } from 'vitest';
import { schedLabErrorOf } from '../../../shared/testing.ts';
import { SplitConcurrencyController } from './split-concurrency-controller.ts';

const S = 1e9;
const MS = 1e6;

describe("Trino's SplitConcurrencyController", () => {
  it('testRampup: an idle buffer raises the target by one per interval while the task runs its target', () => {
    const c = new SplitConcurrencyController(2, 1 * S);
    for (let running = 2; running < 12; running++) {
      c.update(3 * S, 0, running);
      expect(c.targetConcurrency).toBe(running + 1);
    }
  });

  it('rampup waits for the interval, and for the task to run as many as its target', () => {
    const c = new SplitConcurrencyController(4, 1 * S);
    c.update(600 * MS, 0, 4);
    expect(c.targetConcurrency).toBe(4); // 0.6 s of the 1 s interval
    c.update(600 * MS, 0, 3);
    expect(c.targetConcurrency).toBe(4); // interval passed, but only 3 of 4 running
    c.update(1, 0, 4);
    expect(c.targetConcurrency).toBe(5);
    c.update(1, 0, 5);
    expect(c.targetConcurrency).toBe(5); // the counter restarted at the adjustment
  });

  it('testRampdown: a full buffer lowers the target by one per finished split, never below 1', () => {
    const c = new SplitConcurrencyController(7, 1 * S);
    for (let target = 7; target > 1; target--) {
      c.update(1.5 * S, 0.9, target);
      c.splitFinished(20 * S, 0.9, target);
      expect(c.targetConcurrency).toBe(target - 1);
    }
    c.update(1.5 * S, 1, 1);
    c.splitFinished(20 * S, 1, 1);
    expect(c.targetConcurrency).toBe(1);
  });

  it('testRapidAdjustForQuickSplits: a split shorter than the interval adjusts after its own run time', () => {
    const c = new SplitConcurrencyController(6, 1 * S);
    for (let target = 6; target > 1; target--) {
      c.update(300 * MS, 0.8, target); // 0.3 s: not an interval, but more than the split ran
      c.splitFinished(50 * MS, 0.8, target);
      expect(c.targetConcurrency).toBe(target - 1);
    }
    // Emptied buffer: the same quick splits now raise it, one per split.
    for (let running = 1; running < 6; running++) {
      c.update(300 * MS, 0, running - 1); // fewer running than the target: no rise here
      c.splitFinished(50 * MS, 0, running);
      expect(c.targetConcurrency).toBe(running + 1);
    }
  });

  it('a long split finishing early in an interval changes nothing; at exactly 0.5 nothing moves', () => {
    const c = new SplitConcurrencyController(3, 1 * S);
    c.update(200 * MS, 0.9, 3);
    c.splitFinished(5 * S, 0.9, 3);
    expect(c.targetConcurrency).toBe(3);
    c.update(2 * S, 0.5, 3);
    c.splitFinished(1, 0.5, 3);
    expect(c.targetConcurrency).toBe(3);
  });

  it('refuses what Trino refuses, naming the argument', () => {
    expect(schedLabErrorOf(() => new SplitConcurrencyController(0, S))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'initialSplitConcurrency',
    });
    const c = new SplitConcurrencyController(1, S);
    expect(schedLabErrorOf(() => c.update(-1, 0, 0))).toMatchObject({ field: 'nanos' });
    expect(schedLabErrorOf(() => c.update(1, Number.NaN, 0))).toMatchObject({
      field: 'utilization',
    });
    expect(schedLabErrorOf(() => c.splitFinished(1, 0, -1))).toMatchObject({ field: 'running' });
  });
});
