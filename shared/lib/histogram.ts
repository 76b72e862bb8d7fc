/**
 * The one latency/wait histogram: log-linear over µs, 128 buckets per power of two, so a
 * percentile read from it is within 0.8% above the true value (exact below 128 µs). The engine's
 * report and live tables (`Summary`) count into it; frames carry its buckets (`SampleCounts`) so
 * the app can recompute the same percentiles, and draw the distribution, over any time range.
 *
 * A bucket is named by one integer, `band · 128 + slot`: band 0 holds 0–127 µs one per bucket,
 * band b ≥ 1 the octave [2^(b+6), 2^(b+7)) µs.
 */

const SUB_BITS = 7;
const SUB = 1 << SUB_BITS;

/** The bucket (index) a value in µs falls in. */
export function bucketOf(us: number): number {
  if (!(us > 0)) return 0;
  if (us < SUB) return us | 0;
  let band: number;
  let slot: number;
  if (us < 2 ** 31) {
    // Integer µs (< 36 min): the octave from the leading zeros, the bucket by a shift.
    const v = us | 0;
    const e = 31 - Math.clz32(v);
    band = e - SUB_BITS + 1;
    slot = (v >>> (e - SUB_BITS)) - SUB;
  } else {
    const e = Math.floor(Math.log2(us));
    band = e - SUB_BITS + 1;
    slot = Math.max(0, Math.min(SUB - 1, Math.floor(us / 2 ** (e - SUB_BITS)) - SUB));
  }
  return band * SUB + slot;
}

/** The upper edge (µs) of a bucket: what a percentile landing in it reads as. */
export function bucketUpperUs(index: number): number {
  const band = Math.floor(index / SUB);
  const slot = index - band * SUB;
  return band === 0 ? slot + 1 : (SUB + slot + 1) * 2 ** (band - 1);
}

/** The lower edge (µs) of a bucket. */
export function bucketLowerUs(index: number): number {
  return index === 0 ? 0 : bucketUpperUs(index - 1);
}

export class LogHistogram {
  /** Bands allocated on first use (a class's waits touch a dozen or so of the ~40). */
  private readonly bands: (Float64Array | undefined)[] = [];

  record(us: number): void {
    this.add(bucketOf(us), 1);
  }

  /** Adds `count` samples to bucket `index` (a frame's bucket counts folded in). */
  add(index: number, count: number): void {
    const band = Math.floor(index / SUB);
    let counts = this.bands[band];
    if (counts === undefined) {
      while (this.bands.length <= band) this.bands.push(undefined);
      this.bands[band] = counts = new Float64Array(SUB);
    }
    counts[index - band * SUB]! += count;
  }

  /** Adds (`sign` 1) or takes away (−1) every count of `other` (a window's slices come and go). */
  fold(other: LogHistogram, sign: 1 | -1): void {
    other.bands.forEach((counts, band) => {
      if (counts === undefined) return;
      while (this.bands.length <= band) this.bands.push(undefined);
      const mine = (this.bands[band] ??= new Float64Array(SUB));
      for (let slot = 0; slot < SUB; slot++) mine[slot]! += sign * counts[slot]!;
    });
  }

  /** Every non-empty bucket, lowest first. */
  forEach(fn: (index: number, count: number) => void): void {
    this.bands.forEach((counts, band) => {
      if (counts === undefined) return;
      for (let slot = 0; slot < SUB; slot++) {
        const c = counts[slot]!;
        if (c !== 0) fn(band * SUB + slot, c);
      }
    });
  }

  /** The upper edge (µs) of the bucket holding the `rank`-th smallest value (1-based). */
  valueAtRank(rank: number): number {
    let seen = 0;
    for (let band = 0; band < this.bands.length; band++) {
      const counts = this.bands[band];
      if (counts === undefined) continue;
      for (let slot = 0; slot < SUB; slot++) {
        seen += counts[slot]!;
        if (seen >= rank) return bucketUpperUs(band * SUB + slot);
      }
    }
    return Infinity;
  }
}

/**
 * The `p`-th percentile (ms) of `n` samples in `h`: the rank ⌈p/100 · n⌉ read as its bucket's
 * upper edge, never above the true max. The one reading the tables and the app's ranges share.
 */
export function percentileMs(h: LogHistogram, n: number, p: number, maxNanos: number): number {
  const us = h.valueAtRank(Math.max(1, Math.ceil((p / 100) * n)));
  return Math.min(us / 1000, maxNanos / 1e6);
}

/**
 * One key's samples recorded between two frames: `buckets` is flat pairs `[index, count, …]`
 * of `LogHistogram` buckets, `maxNanos` the longest sample among them, `sumNanos` their sum.
 */
export interface BucketCounts {
  maxNanos: number;
  sumNanos: number;
  buckets: number[];
}

/** Samples between two frames per job class and per priority band label. */
export interface SampleCounts {
  byClass: Record<string, BucketCounts>;
  byBand: Record<string, BucketCounts>;
}
