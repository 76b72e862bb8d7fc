/**
 * The chart series of the last frames (queue depth, scheduled time and selections per level,
 * utilization, job counters), kept in a fixed-size ring so a snapshot can hand a reconnecting
 * client the charts' window (`HISTORY_SECONDS`) instead of an empty chart. Memory is bounded by
 * the capacity: one small point per slot, overwritten in place.
 */
import type { Frame, HistoryPoint } from '../../../shared/protocol.ts';

export class SeriesHistory {
  private readonly slots: HistoryPoint[] = [];
  private written = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return Math.min(this.written, this.capacity);
  }

  push(frame: Frame): void {
    if (this.capacity <= 0) return;
    const c = frame.counters;
    this.slots[this.written % this.capacity] = {
      seq: frame.seq,
      timeNanos: frame.timeNanos,
      depth: frame.levels.map((l) => l.depth),
      scheduledNanos: frame.levels.map((l) => l.scheduledNanos),
      selections: frame.levels.map((l) => l.selections),
      utilization: frame.utilization,
      succeeded: c.succeeded,
      submitted: c.submitted,
      live: c.live,
    };
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
