/**
 * The chart series of the last frames (queue depth, scheduled time and selections per level,
 * utilization, job counters) and their sample buckets, kept in a ring so a snapshot can hand a
 * reconnecting client the charts' window (`HISTORY_SECONDS`) instead of an empty chart. Memory is
 * bounded twice: by the capacity in points, and by the sample numbers they hold
 * (`HISTORY_SAMPLES_BUDGET`), the oldest points going first past it.
 */
import {
  HISTORY_SAMPLES_BUDGET,
  historyPoint,
  samplesCost,
  type Frame,
  type HistoryPoint,
} from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';

export class SeriesHistory {
  private readonly ring: Ring<HistoryPoint>;

  constructor(
    readonly capacity: number,
    budget = HISTORY_SAMPLES_BUDGET,
  ) {
    this.ring = new Ring(capacity, { cost: (p) => samplesCost(p.samples), budget });
  }

  /** The sample numbers held (at most the budget, or one point's when that alone is more). */
  get samplesHeld(): number {
    return this.ring.cost;
  }

  get size(): number {
    return this.ring.size;
  }

  push(frame: Frame): void {
    this.ring.push(historyPoint(frame));
  }

  /** Oldest first. */
  points(): HistoryPoint[] {
    return this.ring.since(0);
  }
}
