/**
 * The samples a table recorded since the last frame, as the shared histogram's buckets
 * (`SampleCounts`), so the app can recompute a table and draw its distribution over any time
 * range it holds (docs/metrics.md, "Ranges"). Memory is bounded: keys are the table's (classes
 * capped, bands few), buckets per key at most the histogram's, and the counts are handed over and
 * cleared with every frame.
 */
import { bucketOf, type BucketCounts, type SampleCounts } from '../../../shared/lib/histogram.ts';

class KeyCounts {
  readonly counts = new Map<number, number>();
  maxNanos = 0;
  sumNanos = 0;

  record(nanos: number): void {
    this.sumNanos += nanos;
    const b = bucketOf(nanos / 1000);
    this.counts.set(b, (this.counts.get(b) ?? 0) + 1);
    if (nanos > this.maxNanos) this.maxNanos = nanos;
  }

  toJSON(): BucketCounts {
    const buckets: number[] = [];
    for (const b of [...this.counts.keys()].sort((x, y) => x - y)) {
      buckets.push(b, this.counts.get(b)!);
    }
    return { maxNanos: this.maxNanos, sumNanos: this.sumNanos, buckets };
  }
}

export class PendingCounts {
  private byClass = new Map<string, KeyCounts>();
  private byBand = new Map<string, KeyCounts>();

  record(classKey: string, band: string, nanos: number): void {
    const v = nanos > 0 ? nanos : 0;
    at(this.byClass, classKey).record(v);
    at(this.byBand, band).record(v);
  }

  /** What was recorded since the last `drain`, and starts again empty. */
  drain(): SampleCounts {
    const out: SampleCounts = { byClass: {}, byBand: {} };
    for (const [k, c] of this.byClass) out.byClass[k] = c.toJSON();
    for (const [k, c] of this.byBand) out.byBand[k] = c.toJSON();
    this.byClass = new Map();
    this.byBand = new Map();
    return out;
  }
}

function at(map: Map<string, KeyCounts>, key: string): KeyCounts {
  let c = map.get(key);
  if (c === undefined) map.set(key, (c = new KeyCounts()));
  return c;
}
