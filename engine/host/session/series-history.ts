/**
 * The chart series of the last frames (queue depth, scheduled time and selections per level,
 * utilization, job counters), kept in a fixed-size ring so a snapshot can hand a reconnecting
 * client the charts' window (`HISTORY_SECONDS`) instead of an empty chart. Memory is bounded by
 * the capacity: one small point per slot, overwritten in place.
 */
import { historyPoint, type Frame, type HistoryPoint } from '../../../shared/protocol.ts';

export class SeriesHistory {
  private readonly slots: HistoryPoint[] = [];
  private written = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return Math.min(this.written, this.capacity);
  }

  push(frame: Frame): void {
    if (this.capacity <= 0) return;
    this.slots[this.written % this.capacity] = historyPoint(frame);
    this.written++;
  }

  /** Oldest first. */
  points(): HistoryPoint[] {
    const out: HistoryPoint[] = [];
    for (let n = this.written - this.size; n < this.written; n++) {
      out.push(this.slots[n % this.capacity]!);
    }
    return out;
  }
}
