/**
 * The chart series of the last frames (queue depth, scheduled time and selections per level,
 * utilization, job counters), kept in a fixed-size ring so a snapshot can hand a reconnecting
 * client the charts' window (`HISTORY_SECONDS`) instead of an empty chart. Memory is bounded by
 * the capacity: one small point per slot, overwritten in place.
 */
import { historyPoint, type Frame, type HistoryPoint } from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';

export class SeriesHistory {
  private readonly ring: Ring<HistoryPoint>;

  constructor(readonly capacity: number) {
    this.ring = new Ring(capacity);
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
