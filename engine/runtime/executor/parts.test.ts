// The executor's parts alone, without an executor around them: the reconfigurer over a fake
// backend and hand-made records, and the job queries over a job book.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG, type EngineConfigPatch } from '../../../shared/config.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';
import type { Backend } from '../backend.ts';
import { ClassSplitTimes } from './class-split-times.ts';
import { ExecutorStats } from './executor-stats.ts';
import { JobQueries } from './executor-queries.ts';
import { JobBook } from './job-book.ts';
import { JobTrail, TrailKind } from './job-trail.ts';
import { Knobs } from './knobs.ts';
import { SplitState } from './lifecycle.ts';
import { Reconfigurer } from './live-reconfig.ts';
import { ExecJob, ExecSplit, ExecTask } from './records.ts';
import { mergeConfig } from './settings.ts';
import { SplitBook } from './split-book.ts';
import { MS, spin } from './testing.ts';

/** A backend that only says what it was asked: worker counts and shortened quanta. */
function fakeBackend(now: number): { backend: Backend; asked: string[] } {
  const asked: string[] = [];
  let workers = 2;
  const backend: Backend = {
    kind: 'sim',
    now: () => now,
    get workerCount() {
      return workers;
    },
    setWorkerCount: (n) => {
      workers = n;
      asked.push(`workers ${n}`);
    },
    idleWorkers: () => [],
    start: () => {},
    cancel: () => {},
    shortenQuantum: (w, q) => asked.push(`shorten ${w} to ${q / MS}ms`),
    setTimer: () => () => {},
    setListener: () => {},
    close: async () => {},
  };
  return { backend, asked };
}

/** One job of one task with `n` splits, added to `live` (queued, as created). */
function records(live: SplitBook, n: number, cls = 'alpha'): { job: ExecJob; splits: ExecSplit[] } {
  const job = new ExecJob(1, cls, 0, 50, 0, 0);
  const task = new ExecTask(1, job, 0, false);
  job.addTask(task);
  const splits: ExecSplit[] = [];
  for (let id = 1; id <= n; id++) {
    const s = new ExecSplit(id, job, task, false, spin(100), 0, 'task');
    live.add(s);
    task.live.add(s);
    job.totalSplits++;
    splits.push(s);
  }
  return { job, splits };
}

function reconfigRig(patch: EngineConfigPatch) {
  const knobs = new Knobs(mergeConfig(DEFAULT_ENGINE_CONFIG, patch));
  const live = new SplitBook();
  const { splits } = records(live, 3);
  const [a, b, running] = splits as [ExecSplit, ExecSplit, ExecSplit];
  knobs.queue.offer(a, 0, 'new');
  knobs.queue.offer(b, 0, 'new');
  live.move(running, SplitState.running);
  const { backend, asked } = fakeBackend(5 * MS);
  const events: string[] = [];
  let afterChanges = 0;
  const stats = new ExecutorStats(knobs.settings.levelThresholdsNanos, 0);
  const reconfig = new Reconfigurer(backend, knobs, live, stats, [running, null], {
    record: (kind, detail) => events.push(`${kind}: ${detail}`),
    afterChange: () => afterChanges++,
  });
  return { knobs, reconfig, asked, events, afterChanges: () => afterChanges, a, b };
}

describe('Reconfigurer alone', () => {
  it('a policy switch moves every queued split into the new queue and records the change', () => {
    const r = reconfigRig({ workers: 2, policy: 'fifo', quantumMs: 10 });
    const next = r.reconfig.configure({ policy: 'mlfq', workers: 3, quantumMs: 5 });
    expect(next).toMatchObject({ policy: 'mlfq', workers: 3, quantumMs: 5 });
    expect(r.knobs.cfg).toBe(next);
    expect(r.knobs.settings.dispatchQuantumNanos).toBe(5 * MS);
    expect(r.knobs.queue.policy).toBe('mlfq');
    expect(r.knobs.queue.size).toBe(2);
    const taken = [r.knobs.queue.take(5 * MS), r.knobs.queue.take(5 * MS)];
    expect(new Set(taken)).toEqual(new Set([r.a, r.b]));
    // The running split's worker is told of the shorter quantum; the backend gets the count.
    expect(r.asked).toEqual(['workers 3', 'shorten 0 to 5ms']);
    expect(r.events).toEqual([
      'policy: policy: "fifo" → "mlfq"',
      'workers: workers: 2 → 3',
      'config: quantumMs: 10 → 5',
    ]);
    expect(r.afterChanges()).toBe(1);
  });

  it('an unchanged or invalid patch changes nothing', () => {
    const r = reconfigRig({ workers: 2, policy: 'fifo' });
    const before = r.knobs.cfg;
    const queue = r.knobs.queue;
    expect(r.reconfig.configure({ policy: 'fifo' })).toBe(before);
    const err = schedLabErrorOf(() => r.reconfig.configure({ workers: 2, quantumMs: -1 }));
    expect(err.field).toBe('quantumMs');
    expect(r.knobs.cfg).toBe(before);
    expect(r.knobs.queue).toBe(queue);
    expect(r.events).toEqual([]);
    expect(r.asked).toEqual([]);
    expect(r.afterChanges()).toBe(0);
  });
});

describe('JobQueries alone', () => {
  function queriesRig() {
    const knobs = new Knobs(DEFAULT_ENGINE_CONFIG);
    const live = new SplitBook();
    const book = new JobBook(16);
    const { job } = records(live, 2, 'needle');
    book.start(job);
    const trail = new JobTrail();
    trail.record(TrailKind.reprioritize, job.id, -1, -1, 4 * MS, 50, 80);
    const queries = new JobQueries(
      book,
      trail,
      live,
      knobs,
      new ClassSplitTimes(),
      { now: () => 10 * MS },
      () => true,
    );
    return { queries, job };
  }

  it('finds a live job in the book it is given, and names a bad query', () => {
    const { queries, job } = queriesRig();
    expect(queries.findJobs('class:needle').jobs.map((j) => j.id)).toEqual([job.id]);
    expect(queries.findJobs('class:other').matched).toBe(0);
    expect(schedLabErrorOf(() => queries.findJobs('state:nonsense')).field).toBe('query');
  });

  it("gives a live job's detail with its live splits, and UNKNOWN_ID for a job it never had", () => {
    const { queries, job } = queriesRig();
    const detail = queries.jobDetail(job.id);
    expect(detail.job).toMatchObject({ id: job.id, class: 'needle' });
    expect(detail.splits.map((d) => d.splitId)).toEqual([1, 2]);
    expect(detail.changes).toEqual([
      { timeNanos: 4 * MS, splitId: -1, kind: 'reprioritize', from: 50, to: 80 },
    ]);
    expect(schedLabErrorOf(() => queries.jobDetail(99)).code).toBe('UNKNOWN_ID');
  });
});
