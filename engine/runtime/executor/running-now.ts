/**
 * The quanta running now, each with its time so far: what a pass over the live jobs adds to the
 * service their records hold (a quantum's time reaches `scheduledNanos` only when it ends). A
 * pass spread over frames reads it again after each step, with each job's service as it visits
 * it: read once at the start, a quantum that ended meanwhile counted twice (in its job's
 * `scheduledNanos` and as running), and service was divided by ages from the start.
 */
import type { ExecJob, ExecSplit } from './records.ts';

export interface RunningNow {
  /** Backend time (ns) it was read at. */
  readonly now: number;
  /** Each split running now and how long its quantum has run (ns). */
  readonly bySplit: ReadonlyMap<ExecSplit, number>;
}

/**
 * `bound`: the most a worker's quantum counts as run (`Backend.runningBound`: on the cluster while
 * Redis is away, what it was granted).
 */
export function runningNow(
  runningOn: readonly (ExecSplit | null | undefined)[],
  now: number,
  bound: (worker: number) => number = () => Infinity,
): RunningNow {
  const bySplit = new Map<ExecSplit, number>();
  runningOn.forEach((s, worker) => {
    if (s) bySplit.set(s, Math.max(0, Math.min(now - s.dispatchedAt, bound(worker))));
  });
  return { now, bySplit };
}

/** The running quanta's time per job. */
export function runningByJob(running: RunningNow): Map<ExecJob, number> {
  const byJob = new Map<ExecJob, number>();
  for (const [s, ran] of running.bySplit) byJob.set(s.job, (byJob.get(s.job) ?? 0) + ran);
  return byJob;
}
