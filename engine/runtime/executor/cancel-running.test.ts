import { describe, expect, it } from 'vitest';
import type { CANCEL_RUNNING_MODES } from '../../../shared/config.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/** One worker, 100 ms quanta: `long` runs from 0; it is cancelled at 30 ms; `next` waits. */
function cancelAt30(mode: (typeof CANCEL_RUNNING_MODES)[number]) {
  const { sim, ex, ends } = simRig({
    workers: 1,
    quantumMs: 100,
    policy: 'mlfq',
    cancelRunning: mode,
  });
  const long = ex.submitJob(oneTaskJob('long', intermediates(1, spin(1000))));
  ex.submitJob(oneTaskJob('next', intermediates(1, spin(10))));
  sim.runUntil(30 * MS);
  ex.cancelJob(long);
  const endedAt = ends.find((e) => e.jobId === long)?.endNanos;
  sim.runUntilIdle();
  const s = ex.spans.read(0).columns;
  const spans = Array.from({ length: s.count }, (_, i) => [
    s.split[i],
    s.start[i]! / MS,
    s.end[i]! / MS,
  ]);
  const level0 = ex.levels()[0]!.scheduledNanos / MS;
  return { spans, endedAt, level0, ends };
}

describe('a running split when its job is cancelled', () => {
  it('removeTask (Trino): under finish-quantum it runs out its quantum and is charged all of it', () => {
    const r = cancelAt30('finish-quantum');
    expect(r.endedAt).toBe(30 * MS); // the job ends at once: nothing waits for the split
    expect(r.spans).toEqual([
      [1, 0, 100], // the whole quantum
      [2, 100, 110],
    ]);
    expect(r.level0).toBe(110); // charged 100 ms, as Trino charges processFor's wall time
    expect(r.ends.map((e) => e.state)).toEqual(['cancelled', 'succeeded']);
  });

  it('cooperative (the default) stops it at its next unit and charges what it ran', () => {
    const r = cancelAt30('cooperative');
    expect(r.endedAt).toBe(30 * MS);
    expect(r.spans).toEqual([
      [1, 0, 30],
      [2, 30, 40],
    ]);
    expect(r.level0).toBe(40);
  });

  it.each(['finish-quantum', 'cooperative'] as const)(
    '%s: its last quantum moves no live task between levels, and its ended row counts it',
    (mode) => {
      // Before: the quantum's end moved the ended task up a level, so running tasks per level
      // went to −1 and +1 at each such cancel (−8 after eight), and the cancelled job's row kept
      // the time it had when cancelled (0 here, where its split showed the quantum).
      const { sim, ex } = simRig({
        workers: 1,
        quantumMs: 300,
        policy: 'fifo',
        levelThresholdsMs: [0, 50, 1000, 10_000, 60_000],
        cancelRunning: mode,
      });
      for (let i = 0; i < 3; i++) {
        const id = ex.submitJob(
          oneTaskJob('c', intermediates(1, spin(1000, { perCallNanos: 200 * MS }))),
        );
        sim.runUntil(sim.now() + 30 * MS);
        ex.cancelJob(id);
        sim.runUntilIdle();
        expect(ex.executorStats().tasksPerLevel.running).toEqual([0, 0, 0, 0, 0]);
        const ran = mode === 'finish-quantum' ? 200 : 30;
        expect(ex.jobRow(id)).toMatchObject({ state: 'cancelled', scheduledNanos: ran * MS });
      }
    },
  );
});
