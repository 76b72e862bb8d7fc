import { describe, expect, it } from 'vitest';
import { intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';
import type { Frame } from '../../../shared/protocol.ts';
import { LogHistogram, percentileMs } from '../../../shared/lib/histogram.ts';

/** Every sample the frames carried for one key, summed as the app sums a range. */
function summed(frames: Frame[], kind: 'latency' | 'wait', key: string) {
  const h = new LogHistogram();
  let n = 0;
  let max = 0;
  for (const f of frames) {
    const c = f.samples?.[kind].byClass[key];
    if (c === undefined) continue;
    for (let i = 0; i < c.buckets.length; i += 2) {
      h.add(c.buckets[i]!, c.buckets[i + 1]!);
      n += c.buckets[i + 1]!;
    }
    max = Math.max(max, c.maxNanos);
  }
  return { n, p95: n === 0 ? 0 : percentileMs(h, n, 95, max), max: max / 1e6 };
}

describe('Frame.samples: each frame carries the samples recorded since the one before', () => {
  it('summed over the frames they give the tables’ counts and percentiles (one histogram)', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 5, policy: 'mlfq' } });
    for (let j = 0; j < 6; j++)
      s.executor.submitJob(oneTaskJob(j % 2 ? 'x' : 'y', intermediates(3, spin(20 + j * 7))));
    const frames = s.runToIdle();
    const last = frames.at(-1)!;
    for (const key of ['x', 'y']) {
      const wait = summed(frames, 'wait', key);
      expect(wait.n).toBe(last.wait.byClass[key]!.count);
      expect(wait.n).toBeGreaterThan(3);
      expect(wait.p95).toBeCloseTo(last.wait.byClass[key]!.p95, 3);
      const lat = summed(frames, 'latency', key);
      expect(lat.n).toBe(3);
      expect(lat.max).toBeCloseTo(last.latency.byClass[key]!.max, 3);
    }
  });

  it('a sample is carried once: a snapshot takes none away, the next frame has only new ones', () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10, policy: 'fifo' } });
    s.executor.submitJob(oneTaskJob('a', intermediates(2, spin(30))));
    const first = s.advance(200);
    expect(s.snapshot().frame.samples).toBeUndefined();
    const carried = summed(first, 'wait', 'a').n;
    expect(carried).toBeGreaterThan(0);
    // Nothing new happens: later frames carry no more waits of `a`.
    const later = s.advance(200);
    expect(summed(later, 'wait', 'a').n).toBe(0);
    expect(s.snapshot().history?.some((p) => p.samples !== undefined)).toBe(true);
  });
});
