import { describe, expect, it } from 'vitest';
import { CPU_KERNELS, TARGET_UNIT_NANOS } from './kernels.ts';
import { OUTLIER, UnitMeter } from './unit-meter.ts';

describe('UnitMeter', () => {
  it('credits a unit the time it took, but a descheduled unit no more than OUTLIER × the fastest', () => {
    const meter = new UnitMeter(CPU_KERNELS.spin, 1, 1000, 0);
    expect(meter.credit(90_000)).toBe(90_000);
    expect(meter.credit(120_000)).toBe(120_000); // ordinary variation is real work
    expect(meter.credit(4_000_000)).toBe(90_000 * OUTLIER); // preempted for a time slice
    expect(meter.credit(80_000)).toBe(80_000);
    expect(meter.fastest).toBe(80_000);
  });

  it('a split of varying units is credited about its wall time on a quiet machine', () => {
    // matmul-like: units alternate between 100 and 170 µs; crediting the fastest would count
    // 100 ms of work after ≈ 135 ms of computing.
    const meter = new UnitMeter(CPU_KERNELS.matmul, 3, 45, 0);
    let wall = 0;
    let credited = 0;
    for (let i = 0; i < 1000; i++) {
      const unit = i % 2 === 0 ? 100_000 : 170_000;
      wall += unit;
      credited += meter.credit(unit);
    }
    expect(credited / wall).toBeGreaterThan(0.99);
  });

  it('grows a unit that turned out too cheap toward the target, a bounded step at a time', () => {
    const meter = new UnitMeter(CPU_KERNELS.spin, 1, 1000, 0);
    meter.credit(TARGET_UNIT_NANOS / 100);
    meter.retune();
    expect(meter.size).toBe(16_000);
    expect(meter.fastest).toBeCloseTo((TARGET_UNIT_NANOS / 100) * 16);
  });

  it('shrinks an expensive unit, along the cost curve of its kernel (matmul: cubic)', () => {
    const meter = new UnitMeter(CPU_KERNELS.matmul, 3, 64, 8 * TARGET_UNIT_NANOS);
    meter.retune();
    expect(meter.size).toBe(32);
    expect(meter.fastest).toBeCloseTo(TARGET_UNIT_NANOS);
    meter.retune();
    expect(meter.size).toBe(32); // on target: left alone
  });
});
