/**
 * Streaming summaries with bounded memory: percentiles from a log-linear histogram (128 buckets
 * per power of two of µs, so a percentile is within 0.8% above the true value; exact below
 * 128 µs), exact max and mean on the side; Jain's fairness index from running sums. Recording is
 * a few integer operations, cheap enough to run once per quantum (the run's wait summaries), and
 * both are deterministic, so the same run gives the same report byte for byte.
 */

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const SUB_BITS = 7;
const SUB = 1 << SUB_BITS;

/** Counts by µs: band 0 holds 0–127 µs one per bucket, band b ≥ 1 the octave [2^(b+6), 2^(b+7)). */
class LogHistogram {
  /** Bands allocated on first use (a class's waits touch a dozen or so of the ~40). */
  private readonly bands: (Float64Array | undefined)[] = [];

  record(us: number): void {
    let band = 0;
    let slot: number;
    if (us < SUB) slot = us | 0;
    else if (us < 2 ** 31) {
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
    let counts = this.bands[band];
    if (counts === undefined) {
      while (this.bands.length <= band) this.bands.push(undefined);
      this.bands[band] = counts = new Float64Array(SUB);
    }
    counts[slot]!++;
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

  /** The upper edge (µs) of the bucket holding the `rank`-th smallest value (1-based). */
  valueAtRank(rank: number): number {
    let seen = 0;
    for (let band = 0; band < this.bands.length; band++) {
      const counts = this.bands[band];
      if (counts === undefined) continue;
      for (let slot = 0; slot < SUB; slot++) {
        seen += counts[slot]!;
        if (seen >= rank) return band === 0 ? slot + 1 : (SUB + slot + 1) * 2 ** (band - 1);
      }
    }
    return Infinity;
  }
}

export class Summary {
  private readonly h = new LogHistogram();
  private n = 0;
  private sum = 0;
  private maxNanos = 0;

  get count(): number {
    return this.n;
  }

  /** The longest sample (ns); after `fold(…, −1)` only an upper bound (see `fold`). */
  get max(): number {
    return this.maxNanos;
  }

  /**
   * Adds (`sign` 1) or takes away (−1) every sample of `other`, so a window can be kept as a
   * running total of its slices. Taking away cannot lower `max`: a windowed reader passes the
   * max of the slices it holds to `toMs`.
   */
  fold(other: Summary, sign: 1 | -1): void {
    this.h.fold(other.h, sign);
    this.n += sign * other.n;
    this.sum += sign * other.sum;
    if (sign > 0 && other.maxNanos > this.maxNanos) this.maxNanos = other.maxNanos;
  }

  record(nanos: number): void {
    const v = nanos > 0 ? nanos : 0;
    this.h.record(v / 1000);
    this.n++;
    this.sum += v;
    if (v > this.maxNanos) this.maxNanos = v;
  }

  /**
   * In ms (3 decimals), divided by `scale` (threads `timeScale`); zeros when nothing was recorded.
   * `maxNanos`: the true max where this summary is a window's running total (see `fold`).
   */
  toMs(scale = 1, maxNanos = this.maxNanos): Percentiles {
    if (this.n === 0) return { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
    const at = (p: number) => {
      const us = this.h.valueAtRank(Math.max(1, Math.ceil((p / 100) * this.n)));
      return round3(Math.min(us / 1000, maxNanos / 1e6) / scale);
    };
    return {
      p50: at(50),
      p95: at(95),
      p99: at(99),
      max: round3(maxNanos / 1e6 / scale),
      mean: round3(this.sum / this.n / 1e6 / scale),
    };
  }
}

/** Jain's index (Σx)² / (n·Σx²): 1 when every x is equal, 1/n when one takes everything. */
export class Jain {
  private n = 0;
  private sum = 0;
  private sumSq = 0;

  add(x: number): void {
    this.n++;
    this.sum += x;
    this.sumSq += x * x;
  }

  get value(): number {
    return this.sumSq === 0 ? 1 : round3((this.sum * this.sum) / (this.n * this.sumSq));
  }
}
