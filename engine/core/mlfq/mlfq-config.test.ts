import { describe, expect, it } from 'vitest';
import { MultilevelSplitQueue } from './multilevel-split-queue.ts';
import type { MultilevelSplitQueueOptions } from './mlfq-config.ts';

const S = 1_000_000_000;

function expectConfigError(fn: () => unknown, field: string): void {
  expect(fn).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field }));
  try {
    fn();
  } catch (e) {
    expect((e as Error).message).toContain(field);
  }
}

describe('MultilevelSplitQueue config', () => {
  it('defaults to m = 2, thresholds [0, 1, 10, 60, 300] s and a 30 s cap', () => {
    const queue = new MultilevelSplitQueue();
    expect(queue.levelTimeMultiplier).toBe(2);
    expect(queue.levelThresholdsNanos).toEqual([0, 1, 10, 60, 300].map((s) => s * S));
    expect(queue.levelContributionCapNanos).toBe(30 * S);
  });

  it.each([1, 0.5, 0, -2, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects levelTimeMultiplier %d',
    (m) => {
      expectConfigError(
        () => new MultilevelSplitQueue({ levelTimeMultiplier: m }),
        'levelTimeMultiplier',
      );
      const queue = new MultilevelSplitQueue();
      expectConfigError(() => queue.setLevelTimeMultiplier(m), 'levelTimeMultiplier');
      expect(queue.levelTimeMultiplier).toBe(2); // a rejected value leaves the old one
    },
  );

  it.each([
    ['too few', [0, 1, 2, 3]],
    ['too many', [0, 1, 2, 3, 4, 5]],
    ['not starting at 0', [1, 2, 3, 4, 5]],
    ['equal neighbours', [0, 1, 1, 3, 4]],
    ['decreasing', [0, 5, 3, 8, 9]],
    ['negative', [0, -1, 2, 3, 4]],
    ['not finite', [0, 1, 2, 3, Number.POSITIVE_INFINITY]],
    ['NaN', [0, 1, Number.NaN, 3, 4]],
  ])('rejects levelThresholdsNanos that are %s', (_why, thresholds) => {
    const options: MultilevelSplitQueueOptions = { levelThresholdsNanos: thresholds };
    expectConfigError(() => new MultilevelSplitQueue(options), 'levelThresholdsNanos');
    const queue = new MultilevelSplitQueue();
    expectConfigError(() => queue.setLevelThresholds(thresholds), 'levelThresholdsNanos');
    expect(queue.computeLevel(1 * S)).toBe(1);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])(
    'rejects levelContributionCapNanos %d',
    (cap) => {
      expectConfigError(
        () => new MultilevelSplitQueue({ levelContributionCapNanos: cap }),
        'levelContributionCapNanos',
      );
      const queue = new MultilevelSplitQueue();
      expectConfigError(() => queue.setLevelContributionCap(cap), 'levelContributionCapNanos');
      expect(queue.levelContributionCapNanos).toBe(30 * S);
    },
  );

  it('applies a new cap to the next quantum', () => {
    const queue = new MultilevelSplitQueue({ levelContributionCapNanos: 5 * S });
    queue.updatePriority({ level: 0, levelPriority: 0 }, 600 * S, 600 * S);
    expect([0, 1, 2, 3, 4].map((l) => queue.getLevelScheduledTime(l))).toEqual([
      1 * S,
      4 * S,
      0,
      0,
      0,
    ]);
    queue.setLevelContributionCap(0);
    queue.updatePriority({ level: 4, levelPriority: 0 }, 600 * S, 1200 * S);
    expect(queue.getLevelScheduledTime(4)).toBe(0);
  });

  it('rejects a level outside 0..4 naming the field', () => {
    const queue = new MultilevelSplitQueue();
    expect(() => queue.getLevelScheduledTime(5)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'level' }),
    );
  });
});
