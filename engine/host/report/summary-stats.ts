/**
 * Streaming summaries with bounded memory: percentiles from an HDR histogram (3 significant
 * digits, values in µs), exact max and mean on the side; Jain's fairness index from running sums.
 * Both are deterministic, so the same run gives the same report byte for byte.
 */
import * as hdr from 'hdr-histogram-js';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export class Summary {
  private readonly h = hdr.build({ bitBucketSize: 'packed', useWebAssembly: false });
  private n = 0;
  private sum = 0;
  private maxNanos = 0;

  get count(): number {
    return this.n;
  }

  record(nanos: number): void {
    const v = Math.max(0, nanos);
    this.h.recordValue(Math.round(v / 1000));
    this.n++;
    this.sum += v;
    if (v > this.maxNanos) this.maxNanos = v;
  }

  /** In ms (3 decimals), divided by `scale` (threads `timeScale`); zeros when nothing was recorded. */
  toMs(scale = 1): Percentiles {
    if (this.n === 0) return { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
    const at = (p: number) =>
      round3(Math.min(this.h.getValueAtPercentile(p) / 1000, this.maxNanos / 1e6) / scale);
    return {
      p50: at(50),
      p95: at(95),
      p99: at(99),
      max: round3(this.maxNanos / 1e6 / scale),
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
