import { describe, expect, it } from 'vitest';
import { HISTORY_SECONDS, samplesCost } from '../../../shared/protocol.ts';
import { intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { SeriesHistory } from './series-history.ts';
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
        chargedNanos: f.levels.map((l) => l.chargedNanos),
        policy: 'mlfq',
        labels: ['L0', 'L1', 'L2', 'L3', 'L4'],
        // The samples a frame recorded travel with its point, so a range can be recomputed.
        samples: f.samples,
      });
      expect(p.samples).toBeDefined();
    });
    expect(history[0]!.depth.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('keeps what each point meant across a policy switch: its policy, labels and charged time', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'mlfq' }, frameHz: 10 });
    for (let j = 0; j < 6; j++) s.executor.submitJob(oneTaskJob('a', intermediates(3, spin(900))));
    s.advance(300);
    s.executor.setPolicy('priority');
    s.advance(300);
    s.executor.setPolicy('mlfq');
    s.advance(300);
    const history = s.snapshot().history!;
    expect(history.map((p) => p.policy)).toEqual([
      ...Array<string>(3).fill('mlfq'),
      ...Array<string>(3).fill('priority'),
      ...Array<string>(3).fill('mlfq'),
    ]);
    expect(history[3]!.labels).toEqual(['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100']);
    expect(history[0]!.labels).toEqual(['L0', 'L1', 'L2', 'L3', 'L4']);
    // Charged time per level counts from the session's start: back on mlfq it goes on growing
    // from where the first mlfq stretch left it (the new queue starts from zero).
    const sum = (p: (typeof history)[number]) => p.chargedNanos!.reduce((a, b) => a + b, 0);
    expect(sum(history[6]!)).toBeGreaterThanOrEqual(sum(history[2]!));
    expect(sum(history[8]!)).toBeGreaterThan(sum(history[2]!));
    // The priority stretch charged its own rows: every quantum of it went to the p40-59 band.
    expect(sum(history[5]!)).toBeGreaterThan(0);
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

describe('the history’s sample buckets', () => {
  it('are bounded: past the budget the oldest points go, and the newest stay in order', () => {
    const s = new Session({ config: { workers: 4, quantumMs: 10, policy: 'mlfq' }, frameHz: 10 });
    // Many classes ending jobs every frame: each point carries many buckets.
    for (let j = 0; j < 2000; j++) {
      s.executor.submitJob(oneTaskJob(`c${j % 40}`, intermediates(1, spin(1 + (j % 97)))));
    }
    const frames = s.advance(3000);
    const costs = frames.map((f) => samplesCost(f.samples));
    const budget = Math.max(...costs) * 3;
    const history = new SeriesHistory(600, budget);
    for (const f of frames) history.push(f);
    // Before: every point held whatever its size, up to 60 s of frames (400 MB at 240 Hz).
    expect(history.samplesHeld).toBeLessThanOrEqual(budget);
    const seqs = history.points().map((p) => p.seq);
    expect(seqs.at(-1)).toBe(frames.at(-1)!.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i)); // contiguous, newest last
    expect(seqs.length).toBeLessThan(frames.length);
    expect(seqs.length).toBeGreaterThanOrEqual(3);
  });
});
