/** A bounded ring of ended jobs' rows: the newest `capacity` kept, read newest first. */
import type { JobRow } from '../../../shared/protocol.ts';

export class RowRing {
  private readonly rows: JobRow[] = [];
  private written = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return Math.min(this.written, this.capacity);
  }

  push(row: JobRow): void {
    if (this.capacity <= 0) return;
    this.rows[this.written % this.capacity] = row;
    this.written++;
  }

  find(id: number): JobRow | undefined {
    return this.rows.find((r) => r.id === id);
  }

  /** Appends up to `count` rows to `out`, newest first. */
  newest(count: number, out: JobRow[]): void {
    const stop = this.written - Math.min(count, this.size);
    for (let n = this.written - 1; n >= stop; n--) out.push(this.rows[n % this.capacity]!);
  }
}
