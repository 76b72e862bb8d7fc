/**
 * Finding and following jobs (docs/jobs.md "Finding jobs", "Following a job", "Warnings"):
 * search over live jobs and the bounded history of ended ones, one job's detail from the job
 * trail, and the warnings live jobs raise now. Reads only; nothing here changes a job: it reads
 * the job book, the trail, the live splits and the settings it is given.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import { parseJobQuery } from '../../../shared/lib/job-query.ts';
import {
  FIND_JOBS_DEFAULT_LIMIT,
  type FindJobsResult,
  type JobDetail,
  type JobWarning,
} from '../../../shared/protocol.ts';
import { jobTimelines, type Started } from './job-detail.ts';
import type { ClassSplitTimes } from './class-split-times.ts';
import type { JobBook } from './job-book.ts';
import type { JobTrail } from './job-trail.ts';
import type { Knobs } from './knobs.ts';
import type { Backend } from '../backend.ts';
import type { ExecSplit } from './records.ts';
import type { SplitBook } from './split-book.ts';
import { warningSteps, type FoundWarnings } from './warnings.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from '../../core/graph/steps.ts';

/** The starvation bound warnings use unless told otherwise: the starvation alarm's default. */
export const DEFAULT_STARVATION_MS = 120_000;

export class JobQueries {
  constructor(
    private readonly book: JobBook,
    private readonly trail: JobTrail,
    private readonly live: SplitBook,
    private readonly knobs: Knobs,
    /** Recent succeeded splits' time per class, for the `slow-split` warning. */
    private readonly classTimes: ClassSplitTimes,
    /** The backend: its clock, and the bound on a running quantum's time (`runningBound`). */
    private readonly clock: Pick<Backend, 'now' | 'runningBound'>,
    /** Whether a dispatched split has started on its worker (not queued behind a quantum). */
    private readonly started: Started,
  ) {}

  /** Jobs matching `query` (shared/lib/job-query.ts); a bad query names itself (`query`). */
  findJobs(query: string, limit = FIND_JOBS_DEFAULT_LIMIT): FindJobsResult {
    let q;
    try {
      q = parseJobQuery(query);
    } catch (e) {
      throw new SchedLabError('INVALID_ARGUMENT', `query: ${(e as Error).message}`, 'query');
    }
    return this.book.search(q, limit);
  }

  /**
   * One job's splits, timelines, priority changes and warnings; `UNKNOWN_ID` if not known. Its row
   * carries the failure reason whole (`JobBook.detailRow`), not cut as in frames.
   */
  jobDetail(jobId: number, starvationMs = DEFAULT_STARVATION_MS): JobDetail {
    const job = this.book.detailRow(jobId);
    if (job === undefined) {
      throw new SchedLabError(
        'UNKNOWN_ID',
        `jobId: no job ${jobId} is live or among the ended jobs still remembered`,
        'jobId',
      );
    }
    const live = this.book.live(jobId) ?? null;
    const timelines = jobTimelines(this.trail, jobId, live, this.clock.now(), this.started);
    const splits: ExecSplit[] = [];
    for (const task of live?.tasks ?? []) for (const s of task.live) splits.push(s);
    return { job, ...timelines, warnings: this.warningsOf(splits, starvationMs) };
  }

  /** The warnings every live job raises now (warnings.ts), worst first within each rule. */
  jobWarnings(starvationMs = DEFAULT_STARVATION_MS): JobWarning[] {
    return this.warningsOf(this.live.splits.values(), starvationMs);
  }

  private warningsOf(splits: Iterable<ExecSplit>, starvationMs: number): JobWarning[] {
    // A class's norm counts all its live splits, whoever asks (jobDetail asks for one job).
    const peers = this.live.splits.values();
    const budget = new WorkBudget(UNBOUNDED);
    return runSteps(this.warningSteps(splits, peers, starvationMs, budget)).warnings;
  }

  /**
   * The warnings of `splits` against their classes' norms over `peers`, in steps of `budget`,
   * the first `limit` kept and the rest counted (warnings.ts).
   */
  warningSteps(
    splits: Iterable<ExecSplit>,
    peers: Iterable<ExecSplit>,
    starvationMs: number,
    budget: WorkBudget,
    limit = Infinity,
  ): Steps<FoundWarnings> {
    const s = this.knobs.settings;
    const bounds = {
      now: this.clock.now(),
      clock: () => this.clock.now(),
      starvationNanos: starvationMs * 1e6,
      runawayNanos: s.runawayNanos,
      quantumNanos: s.dispatchQuantumNanos,
      started: this.started,
      runningBound: (split: ExecSplit) => this.clock.runningBound?.(split.worker) ?? Infinity,
      classTimes: (cls: number, live: readonly number[]) => this.classTimes.sortedWith(cls, live),
    };
    return warningSteps(splits, bounds, peers, budget, limit);
  }
}
