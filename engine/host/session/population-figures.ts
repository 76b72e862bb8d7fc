/**
 * The frame figures that pass over every live run: the wait and queued percentiles with the
 * waits still in progress, the oldest wait, the fairness index, `fair`'s groups and the job
 * warnings. With a few thousand runs live each pass is cheap; with 100,000 queued they took most
 * of the main thread at 10 frames a second (a service's event loop stalled 100–500 ms while its
 * console was served, with nobody watching). So they are taken at most once per
 * `RUNS_PER_FRAME` live runs and splits per frame, and carried over in between: with N live,
 * every ⌈N / RUNS_PER_FRAME⌉-th frame, at most every `MAX_STALE_FRAMES`-th (docs/metrics.md).
 * A policy switch, a reset of the tables, a new config or new tenant weights take them afresh
 * at once.
 */
import type { Frame } from '../../../shared/protocol.ts';

/** Live runs and splits one frame passes over, on average, at most. */
export const RUNS_PER_FRAME = 5_000;
/** The most frames the figures are carried over (2 s at 10 frames a second). */
export const MAX_STALE_FRAMES = 20;

export type PopulationFigures = Required<
  Pick<Frame, 'wait' | 'queued' | 'oldestWaitMs' | 'fairness' | 'warnings' | 'warningsMore'>
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

export class PopulationCache {
  private figures: PopulationFigures | null = null;
  private key: FiguresKey | null = null;
  private carried = 0;

  /**
   * The figures for this frame: `take()`'s when they are due, else the last ones. A snapshot
   * (`consume` false) takes them fresh, and the frames after it carry those on: they stepped
   * back to older ones.
   */
  get(
    live: number,
    key: FiguresKey,
    consume: boolean,
    take: () => PopulationFigures,
  ): PopulationFigures {
    const every = Math.min(MAX_STALE_FRAMES, Math.ceil(live / RUNS_PER_FRAME));
    const last = this.key;
    const same =
      last !== null &&
      last.policy === key.policy &&
      last.config === key.config &&
      last.statsSince === key.statsSince &&
      last.weightsVersion === key.weightsVersion;
    if (consume && same && this.figures !== null && this.carried + 1 < every) {
      this.carried++;
      return this.figures;
    }
    const figures = take();
    this.figures = figures;
    this.key = key;
    this.carried = 0;
    return figures;
  }
}
