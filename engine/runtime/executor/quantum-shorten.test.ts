import { describe, expect, it } from 'vitest';
import type { QuantumEnd } from '../backend.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor } from './executor.ts';
import { MS, intermediates, oneTaskJob, simRig, spin } from './testing.ts';

/** Spans in order as [split, start ms, end ms, outcome]. */
function spans(ex: Executor): [number, number, number, string][] {
  const c = ex.spans.read(0).columns;
  const names = ['yielded', 'blocked', 'finished', 'failed', 'cancelled'];
  return Array.from({ length: c.count }, (_, i) => [
    c.split[i]!,
    c.start[i]! / MS,
    c.end[i]! / MS,
    names[c.outcome[i]!]!,
  ]);
}

describe('a shorter quantum reslices running splits', () => {
  it('switching from non-preemptive priority to mlfq ends a run-to-completion quantum at once', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'priority' });
    ex.submitJob(oneTaskJob('scan', intermediates(1, spin(1000))));
    ex.submitJob(oneTaskJob('quick', intermediates(1, spin(5))));
    sim.runUntil(20 * MS); // the scan holds the only worker, dispatched to run to completion
    ex.setPolicy('mlfq');
    sim.runUntil(40 * MS);
    // Past one 10 ms quantum already: it yields now, charged what it ran; the quick split runs.
    expect(spans(ex).slice(0, 3)).toEqual([
      [1, 0, 20, 'yielded'],
      [2, 20, 25, 'finished'],
      [1, 25, 35, 'yielded'],
    ]);
  });

  it('turning preemptive on mid-quantum ends it one new quantum after it started', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'priority' });
    ex.submitJob(oneTaskJob('scan', intermediates(1, spin(1000)), { basePriority: 50 }));
    ex.submitJob(oneTaskJob('urgent', intermediates(1, spin(5)), { basePriority: 0 }));
    sim.runUntil(3 * MS);
    ex.configure({ preemptive: true });
    sim.runUntil(30 * MS);
    expect(spans(ex).slice(0, 2)).toEqual([
      [1, 0, 10, 'yielded'],
      [2, 10, 15, 'finished'],
    ]);
  });

  it('a smaller quantumMs under mlfq shortens running quanta; a larger one changes nothing', () => {
    const { sim, ex } = simRig({ workers: 2, quantumMs: 100, policy: 'mlfq' });
    ex.submitJob(oneTaskJob('a', intermediates(2, spin(1000))));
    sim.runUntil(5 * MS);
    ex.configure({ quantumMs: 200 });
    ex.configure({ quantumMs: 20 });
    sim.runUntil(20 * MS);
    expect(spans(ex)).toEqual([
      [1, 0, 20, 'yielded'],
      [2, 0, 20, 'yielded'],
    ]);
  });

  it('a per-call dispatch is atomic: it keeps its length', () => {
    const { sim, ex } = simRig({ workers: 1, quantumMs: 10, policy: 'priority' });
    ex.submitJob(oneTaskJob('leafy', intermediates(1, spin(100, { perCallNanos: 50 * MS }))));
    sim.runUntil(5 * MS);
    ex.setPolicy('fifo');
    sim.runUntil(60 * MS);
    expect(spans(ex)[0]).toEqual([1, 0, 50, 'yielded']);
  });
});

describe('SimBackend.shortenQuantum', () => {
  it('moves the end to max(now, min(end, start + quantum)) and shrinks the work with it', () => {
    const sim = new SimBackend({ workers: 3 });
    const ends: QuantumEnd[] = [];
    sim.setListener({ quantumEnd: (e) => ends.push(e) });
    const long = (splitId: number, workerId: number, work = spin(100)) =>
      sim.start({ splitId, workerId, quantumNanos: 1e15, work, doneNanos: 0 });
    long(1, 0);
    long(2, 1, spin(100, { blockedNanosPerCall: 7 * MS }));
    long(3, 2, spin(30));
    sim.runUntil(40 * MS);
    sim.shortenQuantum(0, 60 * MS); // in the future: 60 ms
    sim.shortenQuantum(1, 10 * MS); // already past: now, 40 ms
    sim.shortenQuantum(2, 50 * MS); // ended at 30 ms already: idle, nothing to do
    sim.runUntilIdle();
    expect(ends.map((e) => [e.splitId, e.endNanos / MS, e.workNanos / MS, e.outcome])).toEqual([
      [3, 30, 30, 'finished'],
      [2, 40, 40, 'blocked'],
      [1, 60, 60, 'yielded'],
    ]);
    expect(ends[1]!.blockedNanos).toBe(7 * MS);
  });
});
