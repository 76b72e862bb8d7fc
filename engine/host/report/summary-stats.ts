/**
 * Streaming summaries with bounded memory: percentiles from a log-linear histogram (128 buckets
 * per power of two of µs, so a percentile is within 0.8% above the true value; exact below
 * 128 µs), exact max and mean on the side; Jain's fairness index from running sums. Recording is
 * a few integer operations, cheap enough to run once per quantum (the run's wait summaries), and
 * both are deterministic, so the same run gives the same report byte for byte. The histogram is
 * the shared one (`shared/lib/histogram.ts`), so the app reads its ranges the same way.
 */
import { LogHistogram, percentileMs, type BucketCounts } from '../../../shared/lib/histogram.ts';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

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

  /** The samples as the histogram's buckets with their max and sum (ns), as frames carry them. */
  toBuckets(): BucketCounts {
    const buckets: number[] = [];
    this.h.forEach((index, count) => buckets.push(index, count));
    return { maxNanos: this.maxNanos, sumNanos: this.sum, buckets };
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
    const at = (p: number) => round3(percentileMs(this.h, this.n, p, maxNanos) / scale);
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

/** Tenants a run's report tells apart; the jobs of tenants beyond them are left out of it. */
export const MAX_REPORT_TENANTS = 10_000;

/**
 * Jain's index across the tenants of a run's ended jobs (docs/metrics.md, "Jain across tenants"):
 * x = a tenant's scheduled time over its ended jobs / its span, from its first such job's
 * submission to its last one's end — the rate it was served while it was there — divided by its
 * weight (its weight at its last job's end), as the fair groups' index divides service.
 */
export class TenantJain {
  private readonly tenants = new Map<
    string,
    { scheduled: number; from: number; to: number; weight: number }
  >();

  add(
    tenant: string,
    submitNanos: number,
    endNanos: number,
    scheduledNanos: number,
    weight = 1,
  ): void {
    const t = this.tenants.get(tenant);
    if (t !== undefined) {
      t.scheduled += scheduledNanos;
      t.from = Math.min(t.from, submitNanos);
      t.to = Math.max(t.to, endNanos);
      t.weight = weight;
    } else if (this.tenants.size < MAX_REPORT_TENANTS) {
      const t = { scheduled: scheduledNanos, from: submitNanos, to: endNanos, weight };
      this.tenants.set(tenant, t);
    }
  }

  get count(): number {
    return this.tenants.size;
  }

  get value(): number {
    const jain = new Jain();
    for (const t of this.tenants.values()) {
      if (t.to > t.from) jain.add(t.scheduled / (t.to - t.from) / t.weight);
    }
    return jain.value;
  }
}
