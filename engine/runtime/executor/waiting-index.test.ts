// The waiting splits' columns a frame reads the waits in progress from (walking the live splits
// took 40–150 ms a pass with 100,000 runs queued): they hold what a walk over the live splits
// finds, through admission, dispatch, requeues, blocking, re-prioritisation and cancels.
import { describe, expect, it } from 'vitest';
import { MS, intermediates, leaves, simRig, spin } from './testing.ts';
import type { Executor } from './executor.ts';
import { SplitState } from './lifecycle.ts';
import type { SplitBook } from './split-book.ts';
import type { ExecSplit } from './records.ts';
import { WaitingIndex } from './waiting-index.ts';

type Visit = [kind: 'queued' | 'held', cls: number, nanos: number, priority: number];

/** The waits in progress as the frame reads them (the columns, kept from the first read). */
function fromColumns(ex: Executor): Visit[] {
  ex.keepWaitingIndex(true);
  expect((ex as unknown as { live: SplitBook }).live.waiting).not.toBeNull();
  const out: Visit[] = [];
  ex.populationPass().openWaits(
    (c, n, p) => out.push(['queued', c, n, p]),
    (c, n, p) => out.push(['held', c, n, p]),
  );
  return out.sort(order);
}

/** The same read by walking every live split (what the frame did before; no `pipeline` here). */
function fromWalk(ex: Executor): Visit[] {
  const live = (ex as unknown as { live: SplitBook }).live;
  const now = ex.now();
  const out: Visit[] = [];
  for (const s of live.splits.values()) {
    const kind =
      s.state === SplitState.queued ? 'queued' : s.state === SplitState.waiting ? 'held' : null;
    if (kind !== null) out.push([kind, s.job.clsIndex, now - s.enqueuedAt, s.basePriority]);
  }
  return out.sort(order);
}

function order(a: Visit, b: Visit): number {
  return a.join().localeCompare(b.join());
}

describe('the waiting splits’ columns', () => {
  it('hold what a walk over the live splits finds, from start to drained', () => {
    const { sim, ex } = simRig({
      workers: 2,
      quantumMs: 10,
      policy: 'mlfq',
      maxDriversPerTask: 2,
      guaranteedPerTask: 1,
    });
    const jobs: number[] = [];
    for (let i = 0; i < 40; i++) {
      const splits =
        i % 2 === 0 ? leaves(5, spin(15 + (i % 7))) : intermediates(3, spin(25 + (i % 5)));
      jobs.push(ex.submitJob({ class: `c${i % 4}`, basePriority: i % 100, tasks: [{ splits }] }));
    }
    expect(fromColumns(ex)).toEqual(fromWalk(ex));
    expect(fromColumns(ex).some((v) => v[0] === 'held')).toBe(true);
    for (let t = 1; t <= 60; t++) {
      sim.runUntil(t * 7 * MS);
      if (t === 10) for (const id of jobs.slice(-5)) ex.reprioritize(id, 3);
      if (t === 20) for (const id of jobs.slice(24, 30)) ex.cancelJob(id);
      if (t === 25) {
        for (let i = 0; i < 10; i++)
          ex.submitJob({ class: 'late', tasks: [{ splits: leaves(4, spin(12)) }] });
      }
      const columns = fromColumns(ex);
      expect(columns, `at ${t * 7} ms`).toEqual(fromWalk(ex));
    }
    // Let go and kept again (a console stopped, then served again): rebuilt from the splits.
    ex.keepWaitingIndex(false);
    sim.runUntil(500 * MS);
    expect(fromColumns(ex)).toEqual(fromWalk(ex));
    sim.runUntil(60_000 * MS);
    expect(fromColumns(ex)).toEqual([]);
  });

  it('hold as many rows as wait now, not the most that ever waited', () => {
    const index = new WaitingIndex();
    const job = { clsIndex: 0 };
    const splits = Array.from(
      { length: 100_000 },
      (_, i) =>
        ({
          state: SplitState.queued,
          job,
          basePriority: 50,
          enqueuedAt: i,
          waitingRow: -1,
        }) as unknown as ExecSplit,
    );
    for (const s of splits) index.put(s);
    expect(index.capacity).toBeGreaterThanOrEqual(100_000);
    for (const s of splits.slice(10)) index.delete(s);
    expect(index.size).toBe(10);
    expect(splits.slice(10).every((s) => s.waitingRow === -1)).toBe(true);
    expect(index.capacity).toBeLessThanOrEqual(2048);
    const waits: number[] = [];
    index.forEach(100_000, (_cls, nanos) => waits.push(nanos), null);
    expect(waits.sort((a, b) => a - b)).toEqual([
      99_991, 99_992, 99_993, 99_994, 99_995, 99_996, 99_997, 99_998, 99_999, 100_000,
    ]);
  });
});
