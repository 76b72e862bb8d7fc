/**
 * How much work a kernel unit is, learned while it runs. A unit's cost is the fastest it has been
 * seen to run at its size: a slower reading means the thread was descheduled (or the JIT was not
 * done yet), not that more computation happened. Each unit is credited that cost, so a split's
 * `totalNanos` is the same amount of computation however loaded the machine is, and never more
 * than the wall time it took.
 *
 * Between quanta the unit is resized toward the target (≈100 µs), because a size picked at startup
 * from cold, unoptimised code can be many times too small once the JIT has done its work.
 */
import { TARGET_UNIT_NANOS, type CpuKernel } from './kernels.ts';

/** One resize changes a unit at most this much, so one odd reading cannot make it huge. */
const MAX_RESIZE = 16;

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
