// `Backend.runs`: a split goes only to a worker that can run its work (the cluster: a user module
// only on a node started with --modules), the others taking the rest; none is lost or run twice —
// dispatched at once (the simulator) or queued behind a running quantum and taken back by an idle
// worker (the pipeline, on real threads).
import { afterEach, describe, expect, it } from 'vitest';
import type { SplitWork } from '../backend.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { Executor, type JobEnd } from './executor.ts';
import { leaves, MS, oneTaskJob, spanProblems, spin } from './testing.ts';

/** Work of 7 ms runs only on worker 0. */
const picky = (workerId: number, work: SplitWork) => work.totalNanos !== 7 * MS || workerId === 0;

class PickySim extends SimBackend {
  runs = picky;
}

class PickyThreads extends ThreadsBackend {
  runs = picky;
}

let threads: PickyThreads | null = null;
afterEach(async () => {
  await threads?.close();
  threads = null;
});

function submit(ex: Executor): JobEnd[] {
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  for (let i = 0; i < 20; i++) {
    ex.submitJob(oneTaskJob('picky', leaves(2, spin(7))));
    ex.submitJob(oneTaskJob('any', leaves(2, spin(3))));
  }
  return ends;
}

function checkPlaces(ex: Executor, ends: JobEnd[]): void {
  expect(ends.filter((e) => e.state === 'succeeded')).toHaveLength(40);
  const s = ex.spans.read(0).columns;
  expect(spanProblems(s).problems).toEqual([]);
  const pickyOn = new Set<number>();
  const others = new Set<number>();
  for (let i = 0; i < s.count; i++) {
    (s.names[s.cls[i]!] === 'picky' ? pickyOn : others).add(s.worker[i]!);
  }
  expect([...pickyOn]).toEqual([0]);
  expect(others.has(1) && others.has(2)).toBe(true);
}

describe('a backend whose workers cannot all run every split', () => {
  it('sends each split only where it can run (dispatched at once)', () => {
    const sim = new PickySim({ workers: 3, seed: 1 });
    const ex = new Executor(sim, { workers: 3, policy: 'fifo', quantumMs: 2 });
    const ends = submit(ex);
    sim.runUntilIdle();
    checkPlaces(ex, ends);
  });

  it('sends each split only where it can run, queued behind a quantum or taken back by an idle worker', async () => {
    threads = new PickyThreads({ workers: 3 });
    await threads.ready();
    const ex = new Executor(
      threads,
      { workers: 3, policy: 'fifo', quantumMs: 2 },
      { pipeline: true },
    );
    expect((ex as unknown as { dispatcher: { pipelined: boolean } }).dispatcher.pipelined).toBe(
      true,
    );
    const ends = submit(ex);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 60_000;
      const look = () => {
        if (ends.length === 40) resolve();
        else if (Date.now() > deadline) reject(new Error(`${ends.length} of 40 jobs ended`));
        else setTimeout(look, 10);
      };
      look();
    });
    checkPlaces(ex, ends);
  });
});
