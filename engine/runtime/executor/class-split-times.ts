/**
 * Each class's recent succeeded splits' scheduled time, for the `slow-split` warning's median
 * and tail (docs/jobs.md "Warnings"). Bounded: the last `SAMPLES` per class, and classes are the
 * span ring's interned ones (at most 1024).
 */

/** Splits per class the median and tail are taken over (the most recent). */
export const CLASS_TIME_SAMPLES = 256;
/**
 * Fewer samples than this and a class has no statistics yet: with fewer, the 99th percentile is
 * the largest sample and the first splits to end (the short ones) set the median.
 */
export const CLASS_TIME_MIN_SAMPLES = 32;

/** A class's recent split times (ns). */
export interface ClassTimeStats {
  median: number;
  /** The 99th percentile, nearest rank. */
  p99: number;
  samples: number;
}

interface ClassTimes {
  values: Float64Array;
  written: number;
}

export class ClassSplitTimes {
  private readonly classes: ClassTimes[] = [];

  record(clsIndex: number, nanos: number): void {
    let c = this.classes[clsIndex];
    if (c === undefined) {
      c = { values: new Float64Array(CLASS_TIME_SAMPLES), written: 0 };
      this.classes[clsIndex] = c;
    }
    c.values[c.written % CLASS_TIME_SAMPLES] = nanos;
    c.written++;
  }

  /**
   * The class's recent times and `live` (the run so far of its live splits, ns), sorted; null
   * below `CLASS_TIME_MIN_SAMPLES`. A long split that has not ended yet is a sample too, or the
   * first splits to end (the short ones) would set the class's norm and every long one still
   * running would look slow.
   */
  sortedWith(clsIndex: number, live: readonly number[]): Float64Array | null {
    const c = this.classes[clsIndex];
    const ended = c === undefined ? 0 : Math.min(c.written, CLASS_TIME_SAMPLES);
    if (ended + live.length < CLASS_TIME_MIN_SAMPLES) return null;
    const all = new Float64Array(ended + live.length);
    if (c !== undefined) all.set(c.values.subarray(0, ended));
    all.set(live, ended);
    return all.sort();
  }

  /** Median and 99th percentile of the class's last ended splits (ns); null below the minimum. */
  stats(clsIndex: number): ClassTimeStats | null {
    const sorted = this.sortedWith(clsIndex, []);
    return sorted === null ? null : summarise(sorted);
  }
}

/**
 * Median and 99th percentile of `sorted`, leaving out one sample equal to `without` when given
 * (a split is judged against the others of its class, not against itself).
 */
export function summarise(sorted: Float64Array, without?: number): ClassTimeStats {
  let skip = sorted.length;
  if (without !== undefined) {
    const at = sorted.indexOf(without);
    if (at >= 0) skip = at;
  }
  const n = skip < sorted.length ? sorted.length - 1 : sorted.length;
  const at = (k: number) => sorted[k < skip ? k : k + 1]!;
  const median = n % 2 === 1 ? at(n >> 1) : (at(n / 2 - 1) + at(n / 2)) / 2;
  const p99 = at(Math.min(n - 1, Math.ceil(0.99 * n) - 1));
  return { median, p99, samples: n };
}
