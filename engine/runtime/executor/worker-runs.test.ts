// `Backend.runs`: a split goes only to a worker that can run its work (the cluster: a user module
// only on a node started with --modules), the others taking the rest; none is lost or run twice.
import { describe, expect, it } from 'vitest';
import type { SplitWork } from '../backend.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { Executor, type JobEnd } from './executor.ts';
import { leaves, MS, oneTaskJob, spanProblems, spin } from './testing.ts';

/** Work of 7 ms runs only on worker 0. */
class PickySim extends SimBackend {
  runs(workerId: number, work: SplitWork): boolean {
    return work.totalNanos !== 7 * MS || workerId === 0;
  }
}

describe('a backend whose workers cannot all run every split', () => {
  for (const pipeline of [false, true]) {
    it(`sends each split only where it can run (pipeline ${pipeline ? 'on' : 'off'})`, () => {
      const sim = new PickySim({ workers: 3, seed: 1 });
      const ex = new Executor(sim, { workers: 3, policy: 'fifo', quantumMs: 2 }, { pipeline });
      const ends: JobEnd[] = [];
      ex.onJobEnd((e) => ends.push(e));
      for (let i = 0; i < 20; i++) {
        ex.submitJob(oneTaskJob('picky', leaves(2, spin(7))));
        ex.submitJob(oneTaskJob('any', leaves(2, spin(3))));
      }
      sim.runUntilIdle();
      expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(40);
      const s = ex.spans.read(0).columns;
      expect(spanProblems(s).problems).toEqual([]);
      const workers = new Set<number>();
      const others = new Set<number>();
      for (let i = 0; i < s.count; i++) {
        const picky = ex.spans.className(s.cls[i]!) === 'picky';
        (picky ? workers : others).add(s.worker[i]!);
      }
      expect([...workers]).toEqual([0]);
      expect(others.has(1) && others.has(2)).toBe(true);
    });
  }
});
