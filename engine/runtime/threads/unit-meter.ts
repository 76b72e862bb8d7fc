/**
 * How much work a kernel unit is, learned while it runs. A unit is credited the time it took, up
 * to `OUTLIER` times the fastest it has been seen to run at its size: a reading far above that
 * means the thread was descheduled (or hit a GC pause), not that more computation happened. So a
 * split's `totalNanos` is about the same amount of computation however loaded the machine is.
 *
 * Why not credit the fastest time itself: units of the same size vary on a quiet machine too
 * (measured here, mean ÷ fastest: spin 1.06, hash 1.09, compress 1.15, sort 1.20, matmul 1.53 —
 * matmul's cache behaviour is bimodal), so crediting the fastest made a "100 ms" matmul split run
 * ≈ 150 ms of wall time with nothing else on the machine. Descheduling adds a whole time slice
 * (milliseconds, against ≈ 100 µs units), far past the cap; each one over-credits at most
 * `OUTLIER − 1` units' worth, a few per cent when two threads share a core.
 *
 * Between quanta the unit is resized toward the target (≈100 µs), because a size picked at startup
 * from cold, unoptimised code can be many times too small once the JIT has done its work.
 */
import { TARGET_UNIT_NANOS, type CpuKernel } from './kernels.ts';

/** One resize changes a unit at most this much, so one odd reading cannot make it huge. */
const MAX_RESIZE = 16;

/** A unit slower than this many times its fastest was descheduled: credited this much, no more. */
export const OUTLIER = 3;

export class UnitMeter {
  /** Fastest time seen for one unit of the current size (ns). */
  private best: number;

  constructor(
    private readonly kernel: CpuKernel,
    /** Cost grows as size^exponent (matmul: 3). */
    private readonly exponent: number,
    public size: number,
    initialCost: number,
  ) {
    this.best = initialCost > 0 ? initialCost : Infinity;
  }

  /** Records one unit that took `nanos`; returns the work it is credited with. */
  credit(nanos: number): number {
    if (nanos < this.best) this.best = nanos;
    return Math.min(nanos, this.best * OUTLIER);
  }

  /** The fastest time seen for one unit of the current size (ns); Infinity before any. */
  get fastest(): number {
    return this.best;
  }

  /** Moves the unit size toward the target when the cost has drifted far from it. */
  retune(): void {
    if (!Number.isFinite(this.best)) return;
    const ratio = TARGET_UNIT_NANOS / Math.max(this.best, 1);
    if (ratio > 0.5 && ratio < 2) return;
    const clamped = Math.max(1 / MAX_RESIZE, Math.min(MAX_RESIZE, ratio));
    const next = Math.max(
      1,
      Math.min(this.kernel.maxSize, Math.round(this.size * clamped ** (1 / this.exponent))),
    );
    if (next === this.size) return;
    this.best *= (next / this.size) ** this.exponent;
    this.size = next;
  }
}
