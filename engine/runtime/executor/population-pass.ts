/**
 * The passes over every live run and split that a console frame's figures take: the waits in
 * progress, the warnings, Jain over live jobs and `fair`'s groups. A host spreads the last three
 * over frames in steps of a `WorkBudget`, one unit a split, job or group visited
 * (engine/host/session/population-figures.ts): with 100,000 runs queued, taken at once they held
 * a service's event loop 60–400 ms while its console was served.
 *
 * Spread over frames, a pass walks the live tables as they change (`IdTable.values` holds across
 * changes): each run is judged as it is when its step visits it, with the time read again after
 * each step; a split or job that ended since the pass began is passed over, and one that came
 * since may be left to the next pass. The waits in progress are visited in one piece, at once:
 * spread, a wait visited in progress and ended before the pass did would count twice — once in
 * progress, once as recorded.
 */
import type { FairnessMode } from '../../../shared/config.ts';
import type { FairGroups } from '../../../shared/protocol.ts';
import { UNBOUNDED, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import type { WaitVisitor } from './executor-options.ts';
import { fairGroupSteps } from './fair-groups.ts';
import { jainSteps, type Jain } from './job-book.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecJob, ExecSplit } from './records.ts';
import { runningNow, type RunningNow } from './running-now.ts';
import type { WaitingIndex } from './waiting-index.ts';
import type { FoundWarnings } from './warnings.ts';

/** What a pass reads from the executor. */
export interface PassSources {
  now(): number;
  /** The live splits and jobs. */
  splits(): Iterable<ExecSplit>;
  jobs(): Iterable<ExecJob>;
  /** The waiting splits' columns while a console keeps them (waiting-index.ts), else null. */
  waiting(): WaitingIndex | null;
  /** The most a worker's running quantum counts as run (`Backend.runningBound`). */
  runningBound(worker: number): number;
  /** Each worker's quantum running now, and the dispatches queued behind it (`pipeline`). */
  readonly runningOn: readonly (ExecSplit | null | undefined)[];
  readonly queuedOn: readonly (readonly ExecSplit[] | undefined)[];
  readonly fairness: FairnessMode;
  /** The warnings of `splits`, each class's norm taken over `peers`, the first `limit` kept. */
  warnings(
    splits: Iterable<ExecSplit>,
    peers: Iterable<ExecSplit>,
    starvationMs: number,
    budget: WorkBudget,
    limit: number,
  ): Steps<FoundWarnings>;
}

export class PopulationPass {
  private readonly budget: WorkBudget;

  /** With no `budget`, in one piece. */
  constructor(
    private readonly from: PassSources,
    budget?: WorkBudget,
  ) {
    this.budget = budget ?? new WorkBudget(UNBOUNDED);
  }

  /**
   * With the time so far of each: the splits in the ready queue or dispatched behind a running
   * quantum and not started (`queued`: the waits in progress), and leaf splits held by admission
   * (`held`). From the waiting splits' columns while kept, else by a walk over the live splits.
   */
  openWaits(queued: WaitVisitor | null, held: WaitVisitor | null): void {
    const now = this.from.now();
    const index = this.from.waiting();
    if (index !== null) index.forEach(now, queued, held);
    else {
      for (const s of this.from.splits()) {
        const state = s.state;
        const visit =
          state === SplitState.queued ? queued : state === SplitState.waiting ? held : null;
        visit?.(s.job.clsIndex, now - s.enqueuedAt, s.basePriority);
      }
    }
    if (queued === null) return;
    // Dispatched behind a running quantum (`pipeline`), not started: their wait goes on.
    for (const list of this.from.queuedOn) {
      if (list !== undefined)
        for (const s of list) queued(s.job.clsIndex, now - s.enqueuedAt, s.basePriority);
    }
  }

  /** The live jobs' warnings, the first `limit` kept (warnings.ts). */
  warnings(starvationMs: number, limit = Infinity): Steps<FoundWarnings> {
    const { splits } = this.from;
    return this.from.warnings(splits(), splits(), starvationMs, this.budget, limit);
  }

  /** Jain's index over live jobs' rates of service, quanta running now counted. */
  jain(): Steps<Jain> {
    return jainSteps(this.from.jobs(), this.running, this.budget);
  }

  /** Service per fairness group at the grouping `fairness` sets (fair-groups.ts). */
  fairGroups(): Steps<FairGroups> {
    return fairGroupSteps(this.from.jobs(), this.from.fairness, this.running, this.budget);
  }

  private readonly running = (): RunningNow =>
    runningNow(this.from.runningOn, this.from.now(), (w) => this.from.runningBound(w));
}
