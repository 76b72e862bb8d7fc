import { describe, expect, it } from 'vitest';
import { CPU_KERNELS, TARGET_UNIT_NANOS } from './kernels.ts';
import { UnitMeter } from './unit-meter.ts';

describe('UnitMeter', () => {
  it('credits each unit with the fastest time seen, so descheduled units count no extra work', () => {
    const meter = new UnitMeter(CPU_KERNELS.spin, 1, 1000, 0);
    expect(meter.credit(90_000)).toBe(90_000);
    expect(meter.credit(400_000)).toBe(90_000); // preempted: wall time grew, work did not
    expect(meter.credit(80_000)).toBe(80_000);
  });

  it('grows a unit that turned out too cheap toward the target, a bounded step at a time', () => {
    const meter = new UnitMeter(CPU_KERNELS.spin, 1, 1000, 0);
    meter.credit(TARGET_UNIT_NANOS / 100);
    meter.retune();
    expect(meter.size).toBe(16_000);
    expect(meter.credit(Infinity)).toBeCloseTo((TARGET_UNIT_NANOS / 100) * 16);
  });

  it('shrinks an expensive unit, along the cost curve of its kernel (matmul: cubic)', () => {
    const meter = new UnitMeter(CPU_KERNELS.matmul, 3, 64, 8 * TARGET_UNIT_NANOS);
    meter.retune();
    expect(meter.size).toBe(32);
    expect(meter.credit(Infinity)).toBeCloseTo(TARGET_UNIT_NANOS);
    meter.retune();
    expect(meter.size).toBe(32); // on target: left alone
  });
});
