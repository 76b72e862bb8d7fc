/**
 * Kernel units (issue 3 asks for ≈50–200 µs): `calibrate()` sizes each CPU kernel's unit on this
 * machine, then each unit is timed again 21 times and the median reported against the 100 µs
 * target. A ratio near 1 is right; far below, quanta end on too fine a grain (clock reads cost);
 * far above, a quantum overruns its end (or a cancel lands late) by up to one unit.
 */
import { nanosSince, originNow } from '../engine/runtime/threads/clock.ts';
import { calibrate, CPU_KERNELS, TARGET_UNIT_NANOS } from '../engine/runtime/threads/kernels.ts';
import type { BenchReport } from './report.ts';

const RETIMES = 21;

export async function run(report: BenchReport): Promise<void> {
  const origin = originNow();
  const clock = (): number => nanosSince(origin);
  const { sizes } = calibrate(clock);
  for (const [name, kernel] of Object.entries(CPU_KERNELS)) {
    const took: number[] = [];
    for (let i = 0; i < RETIMES; i++) {
      const start = clock();
      kernel.unit(sizes[name]!);
      took.push(clock() - start);
    }
    took.sort((a, b) => a - b);
    report.add(`kernels.${name}.unit_ns`, took[RETIMES >> 1]!, 'ns', TARGET_UNIT_NANOS);
  }
}
