/**
 * The passes over every live run and split that a console frame's figures take: the waits in
 * progress, the warnings, Jain over live jobs and `fair`'s groups. A host spreads the last three
 * over frames in steps of a `WorkBudget`, one unit a split or job visited
 * (engine/host/session/population-figures.ts): with 100,000 runs queued, taken at once they held
 * a service's event loop 60–400 ms while its console was served.
 *
 * Spread over frames, a pass walks copies of the live splits and jobs, taken at its first use of
 * each (the tables change between steps): a split or job that ended since is passed over, one
 * that came since is left to the next pass. The waits in progress are visited in one piece, when
 * asked: spread, a wait visited in progress and ended before the pass did would count twice —
 * once in progress, once as recorded.
 */
import type { FairnessMode } from '../../../shared/config.ts';
import type { FairGroups, JobWarning } from '../../../shared/protocol.ts';
import { UNBOUNDED, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import type { WaitVisitor } from './executor-options.ts';
import { fairGroupSteps } from './fair-groups.ts';
import { jainSteps, type Jain } from './job-book.ts';
import type { ExecJob, ExecSplit } from './records.ts';
import type { WaitingIndex } from './waiting-index.ts';

/** What a pass reads from the executor. */
export interface PassSources {
  now(): number;
  /** The live splits and jobs (iterated once for a copy, or as they are in one piece). */
  splits(): Iterable<ExecSplit>;
  jobs(): Iterable<ExecJob>;
  /** The splits in the ready queue or held by admission, in columns (waiting-index.ts). */
  waiting(): WaitingIndex;
  /** Each worker's quantum running now, and the dispatches queued behind it (`pipeline`). */
  readonly runningOn: readonly (ExecSplit | null | undefined)[];
  readonly queuedOn: readonly (readonly ExecSplit[] | undefined)[];
  readonly fairness: FairnessMode;
  /** The warnings of `splits`, each class's norm taken over `peers` (warnings.ts). */
  warnings(
    splits: Iterable<ExecSplit>,
    peers: Iterable<ExecSplit>,
    starvationMs: number,
    budget: WorkBudget,
  ): Steps<JobWarning[]>;
}

export class PopulationPass {
  private splitList: ExecSplit[] | null = null;
  private jobList: ExecJob[] | null = null;
  private readonly budget: WorkBudget;
  private readonly copies: boolean;

  /** With no `budget`, in one piece: the live tables are walked as they are, with no copies. */
  constructor(
    private readonly from: PassSources,
    budget?: WorkBudget,
  ) {
    this.budget = budget ?? new WorkBudget(UNBOUNDED);
    this.copies = budget !== undefined;
  }

  /**
   * In one walk over the waiting splits' columns (waiting-index.ts), with the time so far of
   * each: those in the ready queue or dispatched behind a running quantum and not started
   * (`queued`: the waits in progress), and leaf splits held by admission (`held`).
   */
  openWaits(queued: WaitVisitor | null, held: WaitVisitor | null): void {
    const now = this.from.now();
    this.from.waiting().forEach(now, queued, held);
    if (queued === null) return;
    // Dispatched behind a running quantum (`pipeline`), not started: their wait goes on.
    for (const list of this.from.queuedOn) {
      if (list !== undefined)
        for (const s of list) queued(s.job.clsIndex, now - s.enqueuedAt, s.basePriority);
    }
  }

  warnings(starvationMs: number): Steps<JobWarning[]> {
    return this.from.warnings(this.splits(), this.splits(), starvationMs, this.budget);
  }

  /** Jain's index over live jobs' rates of service, quanta running now counted. */
  jain(): Steps<Jain> {
    const now = this.from.now();
    const running = new Map<ExecJob, number>();
    for (const s of this.from.runningOn) {
      if (s) running.set(s.job, (running.get(s.job) ?? 0) + (now - s.dispatchedAt));
    }
    return jainSteps(this.jobs(), now, running, this.budget);
  }

  /** Service per fairness group at the grouping `fairness` sets (fair-groups.ts). */
  fairGroups(): Steps<FairGroups> {
    const now = this.from.now();
    const running = new Map<ExecSplit, number>();
    for (const s of this.from.runningOn) if (s) running.set(s, Math.max(0, now - s.dispatchedAt));
    return fairGroupSteps(this.jobs(), this.from.fairness, running, now, this.budget);
  }

  private splits(): Iterable<ExecSplit> {
    if (!this.copies) return this.from.splits();
    return (this.splitList ??= [...this.from.splits()]);
  }

  private jobs(): Iterable<ExecJob> {
    if (!this.copies) return this.from.jobs();
    return (this.jobList ??= [...this.from.jobs()]);
  }
}
