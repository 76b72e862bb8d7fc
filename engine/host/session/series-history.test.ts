import { describe, expect, it } from 'vitest';
import { HISTORY_SECONDS } from '../../../shared/protocol.ts';
import { intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

describe('Session snapshot: the charts’ history', () => {
  it('carries the series of every frame so far, in order, matching the frames', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'mlfq' }, frameHz: 10 });
    expect(s.snapshot().history).toEqual([]);
    for (let j = 0; j < 6; j++) s.executor.submitJob(oneTaskJob('a', intermediates(3, spin(200))));
    const frames = s.advance(500);
    const history = s.snapshot().history!;
    expect(history.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5]);
    history.forEach((p, i) => {
      const f = frames[i]!;
      expect(p).toEqual({
        seq: f.seq,
        timeNanos: f.timeNanos,
        depth: f.levels.map((l) => l.depth),
        scheduledNanos: f.levels.map((l) => l.scheduledNanos),
        selections: f.levels.map((l) => l.selections),
        utilization: f.utilization,
        succeeded: f.counters.succeeded,
        submitted: f.counters.submitted,
        live: f.counters.live,
      });
    });
    expect(history[0]!.depth.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it(`keeps the last ${HISTORY_SECONDS} s of frames at the frame rate, never more`, () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10 }, frameHz: 5 });
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(1_000_000))));
    s.advance(100_000); // 500 frames
    const cap = HISTORY_SECONDS * 5;
    const history = s.snapshot().history!;
    expect(history).toHaveLength(cap);
    expect(history.map((p) => p.seq)).toEqual(Array.from({ length: cap }, (_, k) => 201 + k));
    expect(history.at(-1)!.timeNanos - history[0]!.timeNanos).toBe((cap - 1) * 200e6);
    // The snapshot's frame is the last frame's state now: same seq as the last point.
    expect(s.snapshot().frame.seq).toBe(500);
  });
});
