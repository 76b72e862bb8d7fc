import { describe, expect, it } from 'vitest';
import type { BucketCounts } from '../../../shared/lib/histogram.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { POINT_CAPACITY, POINT_SAMPLES_BUDGET, Telemetry } from '../data/telemetry.ts';
import { renderStatic } from '../testing.tsx';
import { RangeBar } from './range-bar.tsx';

/** The history hint's tooltip (what the range bar says about how much it keeps). */
function heldTitle(telemetry: Telemetry): string {
  const html = renderStatic(<RangeBar />, { telemetry });
  const tag = html.match(/<span[^>]*data-testid="range-held"[^>]*>/)![0];
  return tag.match(/title="([^"]*)"/)![1]!.replace(/&#x27;/g, "'");
}

/** A frame whose sample buckets hold `numbers` numbers (samplesCost), one class, 10 Hz. */
function frameWith(seq: number, numbers: number) {
  const counts: BucketCounts = {
    maxNanos: 1e6,
    sumNanos: 1e6,
    buckets: new Array(numbers - 2).fill(1),
  };
  const frame = syntheticFrame({ seq, timeMs: seq * 100 });
  frame.samples = {
    latency: { byClass: { web: counts }, byBand: {} },
    wait: { byClass: {}, byBand: {} },
  };
  return frame;
}

describe('the range bar', () => {
  it('says how many frames it keeps and how far back that reaches at this pace', () => {
    const telemetry = new Telemetry();
    for (let seq = 1; seq <= 11; seq++) telemetry.ingestFrame(frameWith(seq, 10));
    expect(heldTitle(telemetry)).toBe(
      `the app keeps the last ${POINT_CAPACITY} frames: at this pace ≈ 10:00`,
    );
  });

  it('says when the frames’ sample buckets, not the frame count, bound the history, and by what', () => {
    // 10 frames of 30 numbers against a budget of 100: the newest 3 are kept.
    const telemetry = new Telemetry({ pointSamplesBudget: 100 });
    for (let seq = 1; seq <= 10; seq++) telemetry.ingestFrame(frameWith(seq, 30));
    expect(telemetry.points.size).toBe(3);
    expect(heldTitle(telemetry)).toBe(
      `the app keeps 3 frames now, not ${POINT_CAPACITY}: their sample buckets reached its bound of 100 numbers`,
    );
    // The app's own bound is the one it names by default.
    expect(new Telemetry().points.budget).toBe(POINT_SAMPLES_BUDGET);
  });
});
