// A task's output buffer: leaf splits fill it as they run, the consumer drains it over time, and
// its utilisation is what the split concurrency controller steers by.
import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer.ts';

const S = 1e9;

describe('OutputBuffer', () => {
  it('fills with run time, drains with elapsed time, and stays within 0..capacity', () => {
    const b = new OutputBuffer({ capacity: 100, producedPerSec: 40, consumedPerSec: 10 }, 0);
    expect(b.utilization(0)).toBe(0);
    b.produced(1 * S, 1 * S); // +40, drained 10 of nothing first
    expect(b.utilization(1 * S)).toBeCloseTo(0.4);
    expect(b.utilization(3 * S)).toBeCloseTo(0.2); // 2 s at 10 pages/s
    b.produced(10 * S, 3 * S); // +400, clamped to 100
    expect(b.utilization(3 * S)).toBe(1);
    expect(b.utilization(20 * S)).toBe(0); // 17 s drains 170 > 100
  });

  it('a consumer faster than the producers keeps it empty', () => {
    const b = new OutputBuffer({ capacity: 10, producedPerSec: 5, consumedPerSec: 50 }, 0);
    for (let t = 1; t <= 10; t++) b.produced(0.5 * S, t * S);
    expect(b.utilization(11 * S)).toBe(0);
  });
});
