/**
 * Trino's simulator histograms (docs/design.md §9): buckets 0 / 1 s / 10 s / 60 s /
 * 300 s / 1 h / 1 d. Trino's printer drops values past the last bucket; here the last bucket is
 * open-ended (≥ 1 d), so every value is counted.
 */
const S = 1e9;
export const BUCKET_STARTS_NANOS = [0, 1 * S, 10 * S, 60 * S, 300 * S, 3600 * S, 86_400 * S];
export const BUCKET_LABELS = ['0', '1s', '10s', '60s', '300s', '1h', '1d+'];

export class BucketHistogram {
  readonly counts = new Array<number>(BUCKET_STARTS_NANOS.length).fill(0);
  total = 0;
  sumNanos = 0;

  record(nanos: number): void {
    let b = BUCKET_STARTS_NANOS.length - 1;
    while (b > 0 && nanos < BUCKET_STARTS_NANOS[b]!) b--;
    this.counts[b]!++;
    this.total++;
    this.sumNanos += nanos;
  }
}
