/**
 * Each class's recent succeeded splits' scheduled time, for the `slow-split` warning's median
 * (docs/jobs.md "Warnings"). Bounded: the last `SAMPLES` per class, and classes are the span
 * ring's interned ones (at most 1024). The median is sorted again only after new samples.
 */

/** Splits per class the median is taken over (the most recent). */
export const CLASS_TIME_SAMPLES = 256;
/** Fewer succeeded splits than this and a class has no median yet. */
export const CLASS_TIME_MIN_SAMPLES = 16;

interface ClassTimes {
  values: Float64Array;
  written: number;
  median: number | null;
  dirty: boolean;
}

export class ClassSplitTimes {
  private readonly classes: ClassTimes[] = [];

  record(clsIndex: number, nanos: number): void {
    let c = this.classes[clsIndex];
    if (c === undefined) {
      c = { values: new Float64Array(CLASS_TIME_SAMPLES), written: 0, median: null, dirty: false };
      this.classes[clsIndex] = c;
    }
    c.values[c.written % CLASS_TIME_SAMPLES] = nanos;
    c.written++;
    c.dirty = true;
  }

  /** Median of the class's last splits (ns); null below `CLASS_TIME_MIN_SAMPLES`. */
  median(clsIndex: number): number | null {
    const c = this.classes[clsIndex];
    if (c === undefined || c.written < CLASS_TIME_MIN_SAMPLES) return null;
    if (c.dirty) {
      const n = Math.min(c.written, CLASS_TIME_SAMPLES);
      const sorted = c.values.slice(0, n).sort();
      c.median = n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
      c.dirty = false;
    }
    return c.median;
  }
}
