// The live session's controls for a preset switch and for stale tables: `cancelAll`,
// `resetStats`, the tables' 60 s window, and the sim's pace in frames.
import { describe, expect, it } from 'vitest';
import { STATS_WINDOW_SECONDS } from '../../../shared/protocol.ts';
import { intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

const S = 1e9;

describe('cancelAll', () => {
  it('cancels every queued and running job and says how many', async () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'mlfq' } });
    for (let j = 0; j < 5; j++) s.executor.submitJob(oneTaskJob('a', intermediates(4, spin(500))));
    s.advance(100);
    expect(s.executor.counters.splitsRunning).toBe(2);
    const result = await s.handleCommand({ type: 'cancelAll', id: 7 });
    expect(result).toEqual({ ok: true, cancelled: 5, id: 7 });
    const f = s.advance(100).at(-1)!;
    expect(f.counters.live).toBe(0);
    expect(f.counters.cancelled).toBe(5);
    expect(f.counters.splitsQueued + f.counters.splitsRunning).toBe(0);
    // Nothing left: a second one cancels nothing.
    expect(await s.handleCommand({ type: 'cancelAll' })).toEqual({ ok: true, cancelled: 0 });
    await s.close();
  });

  it('stops the running workload first, so none of its jobs arrives after the cancel', async () => {
    let stopped = 0;
    const s = new Session({
      config: { workers: 2, quantumMs: 10 },
      workloads: { stop: () => stopped++ },
    });
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(500))));
    expect(await s.handleCommand({ type: 'cancelAll' })).toEqual({ ok: true, cancelled: 1 });
    expect(stopped).toBe(1);
    await s.close();
  });
});

describe('latency and wait tables', () => {
  it(`cover the last ${STATS_WINDOW_SECONDS} s: a class that stopped long ago leaves them`, async () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10, policy: 'fifo' } });
    s.executor.submitJob(oneTaskJob('old', intermediates(1, spin(20))));
    const early = s.advance(1000).at(-1)!;
    expect(early.latency.byClass['old']?.count).toBe(1);
    expect(early.wait.byClass['old']?.count).toBe(2); // two 10 ms quanta
    expect(early.statsSinceNanos).toBe(0);
    // Keep another class busy for two minutes.
    const busy = () => s.executor.submitJob(oneTaskJob('new', intermediates(1, spin(20))));
    let last = early;
    for (let t = 0; t < 120; t++) {
      busy();
      last = s.advance(1000).at(-1)!;
    }
    expect(last.latency.byClass['old']).toBeUndefined();
    expect(last.wait.byClass['old']).toBeUndefined();
    // The window is the last 60 s (whole 10 s slices): 50..60 s of the 121 s run.
    expect(last.latency.byClass['new']!.count).toBeGreaterThanOrEqual(50);
    expect(last.latency.byClass['new']!.count).toBeLessThanOrEqual(60);
    expect(last.statsSinceNanos).toBeGreaterThan(last.timeNanos - 60 * S);
    expect(last.statsSinceNanos).toBeLessThanOrEqual(last.timeNanos - 50 * S);
    await s.close();
  });

  it('count what the frames after statsSinceNanos carry, however far apart frames are (100×)', async () => {
    // A frame 10 s of backend time after the one before (100× speed), its window cut at a 10 s
    // boundary: the first frame in the window brought samples from before it, and the app's
    // distributions (drawn from the frames after statsSinceNanos) counted more than the tables.
    const s = new Session({
      config: { workers: 1, quantumMs: 10, policy: 'fifo' },
      frameHz: 1 / 7.3, // frames 7.3 s apart: never on a slice boundary
    });
    const frames = [];
    for (let t = 0; t < 130; t++) {
      for (let k = 0; k < 4; k++) s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(5))));
      frames.push(...s.advance(7300));
    }
    expect(frames).toHaveLength(130);
    for (const f of frames.slice(-20)) {
      const since = f.statsSinceNanos!;
      const carried = frames
        .filter((p) => p.seq <= f.seq && p.timeNanos > since)
        .reduce((n, p) => n + sampleCount(p.samples!.latency.byClass['a']), 0);
      expect(carried).toBe(f.latency.byClass['a']!.count);
      expect(f.timeNanos - since).toBeGreaterThan(50 * S);
      expect(f.timeNanos - since).toBeLessThanOrEqual(60 * S + 7.3 * S);
    }
    await s.close();
  });

  it('resetStats starts them again from now', async () => {
    const s = new Session({ config: { workers: 1, quantumMs: 10, policy: 'fifo' } });
    s.executor.submitJob(oneTaskJob('a', intermediates(1, spin(20))));
    expect(s.advance(500).at(-1)!.latency.byClass['a']?.count).toBe(1);
    const at = s.executor.now();
    expect(await s.handleCommand({ type: 'resetStats' })).toEqual({ ok: true });
    const f = s.advance(100).at(-1)!;
    expect(f.latency.byClass).toEqual({});
    expect(f.wait.byClass).toEqual({});
    expect(f.statsSinceNanos).toBe(at);
    s.executor.submitJob(oneTaskJob('b', intermediates(1, spin(20))));
    expect(Object.keys(s.advance(500).at(-1)!.latency.byClass)).toEqual(['b']);
    await s.close();
  });

  it('an urgent-wait alarm writes its durations as the app does', () => {
    const s = new Session({
      config: { workers: 1, quantumMs: 10, policy: 'priority', aging: false },
      alarms: { urgentP95WaitMs: 1000 },
    });
    s.executor.submitJob(oneTaskJob('hog', intermediates(1, spin(20_000)), { basePriority: 0 }));
    s.executor.submitJob(oneTaskJob('urgent', intermediates(1, spin(10)), { basePriority: 5 }));
    const f = s.advance(17_400).at(-1)!;
    expect(f.alarms?.map((a) => a.message)).toEqual(['p0-19 p95 wait 17 s exceeds 1.0 s']);
  });
});

describe('sim pace', () => {
  it('frames say the pace; setSpeed takes max', async () => {
    const s = new Session({ speed: 5 });
    expect(s.advance(100).at(-1)!.speed).toBe(5);
    expect(await s.handleCommand({ type: 'setSpeed', speed: 'max' })).toEqual({
      ok: true,
      speed: 'max',
    });
    expect(s.advance(100).at(-1)!.speed).toBe('max');
    await s.close();
  });

  it('at max the sim runs between frames, not only in the frame tick', async () => {
    const s = new Session({ speed: 'max', frameHz: 10, config: { workers: 2, quantumMs: 1 } });
    // Far more work than a few frames can finish: the sim always has events pending.
    s.executor.submitJob(oneTaskJob('long', intermediates(2, spin(3_600_000))));
    const afterFrame = new Promise<number>((resolve) => {
      const off = s.onFrame(() => {
        off();
        resolve(s.executor.now());
      });
    });
    s.start();
    try {
      const atFrame = await afterFrame;
      // One turn of the event loop after the frame, no timer in between: the sim has moved on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(s.executor.now()).toBeGreaterThan(atFrame);
    } finally {
      await s.close();
    }
  }, 30_000);
});

/** How many samples a frame's bucket counts hold (pairs of bucket, count). */
function sampleCount(c: { buckets: number[] } | undefined): number {
  let n = 0;
  for (let i = 1; c !== undefined && i < c.buckets.length; i += 2) n += c.buckets[i]!;
  return n;
}
