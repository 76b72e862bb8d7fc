/**
 * The frame figures that pass over every live run: the wait and queued percentiles with the
 * waits still in progress, the oldest wait, the fairness index, `fair`'s groups and the job
 * warnings. With a few thousand runs live a pass is cheap; with 100,000 queued one pass held a
 * service's event loop 60–400 ms while its console was served, with nobody watching. So a pass is
 * spread over frames: each frame takes one step of it, `UNITS_PER_FRAME` splits or jobs visited
 * at most, and the frames carry the last finished pass's figures until the next one finishes —
 * every frame up to a few thousand live, every few seconds at 100,000 (docs/metrics.md). The
 * waits in progress are taken in one piece at a pass's last step (population-pass.ts says why).
 * A policy switch or a new config drops the pass under way and begins another; a reset of the
 * tables or new tenant weights take the figures afresh at once; a snapshot carries the frames'
 * figures (taken in one piece, a snapshot stalled the service 60–1,000 ms a client that connected).
 */
import type { Frame } from '../../../shared/protocol.ts';
import { runSteps, WorkBudget, type Steps } from '../../core/graph/steps.ts';

/** Splits or jobs one frame's step of a pass visits at most. */
export const UNITS_PER_FRAME = 10_000;

export type PopulationFigures = Required<
  Pick<
    Frame,
    'wait' | 'queued' | 'oldestWaitMs' | 'fairness' | 'warnings' | 'warningsMore' | 'figuresAtNanos'
  >
> &
  Pick<Frame, 'fairGroups'>;

/** What a carried-over set of figures must still match. */
export interface FiguresKey {
  readonly policy: string;
  readonly config: object;
  readonly statsSince: number;
  /** The tenant weights' version: the fair groups' weights and Jain follow a change at once. */
  readonly weightsVersion: number;
}

/** A pass in steps of `budget`, or in one piece without. */
export type PopulationSteps = (budget?: WorkBudget) => Steps<PopulationFigures>;

export class PopulationCache {
  private figures: PopulationFigures | null = null;
  private key: FiguresKey | null = null;
  /** The pass under way, a step a frame. */
  private pass: Steps<PopulationFigures> | null = null;

  /**
   * The figures for this frame: the last finished pass's. A frame (`consume`) takes one step of
   * the pass under way, or of a new one; a policy switch or a new config drops the pass under way
   * (its figures are the old settings') and begins another at once, which with few runs live
   * finishes in that same step (a slider dragged changes the config many times a second). A
   * snapshot takes no step: it carries what the frames carry. With nothing to carry yet, after a
   * reset of the tables and after new tenant weights, a pass is taken in one piece.
   */
  get(key: FiguresKey, consume: boolean, steps: PopulationSteps): PopulationFigures {
    const last = this.key;
    // A reset or new weights: figures from before would read as after them (the tables' window,
    // the groups' weights), so they are taken now, in one piece — an operator's rare command.
    if (
      this.figures === null ||
      last === null ||
      last.statsSince !== key.statsSince ||
      last.weightsVersion !== key.weightsVersion
    ) {
      this.pass = null;
      this.key = key;
      return (this.figures = runSteps(steps()));
    }
    if (last.policy !== key.policy || last.config !== key.config) {
      this.pass = null;
      this.key = key;
    }
    if (!consume) return this.figures;
    this.pass ??= steps(new WorkBudget(UNITS_PER_FRAME));
    const step = this.pass.next();
    if (step.done === true) {
      this.pass = null;
      this.figures = step.value;
    }
    return this.figures;
  }
}
