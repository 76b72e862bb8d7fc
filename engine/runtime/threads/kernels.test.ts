import { describe, expect, it } from 'vitest';
import type { Dispatch, KernelName } from '../backend.ts';
import { nanosSince, originNow } from './clock.ts';
import { createControl } from './control.ts';
import { calibrate, CPU_KERNELS, TARGET_UNIT_NANOS, type Calibration } from './kernels.ts';
import type {
  ENDS_READY,
  FlatEnd,
  FromQuantumWorker,
  QuantumReport,
  QuantumWorkerData,
} from './protocol.ts';
import { QuantumRunner } from './quantum-runner.ts';
import { WorkerHost } from './worker-host.ts';

// How long a unit takes on this machine is a speed, measured by `npm run bench` (suite `kernels`,
// figure `kernels.<name>.unit_ns` against the 100 µs target); the cores a test runs on are shared,
// so these tests check what calibration does with the times it reads, on clocks they control.
const CPU: Exclude<KernelName, 'sleep'>[] = ['hash', 'sort', 'compress', 'matmul', 'spin'];

/** A clock that moves `step` ns each time it is read, whatever the work between reads costs. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

describe('kernel units', { timeout: 60_000 }, () => {
  it('a kernel whose unit reads ten times the target gets a smaller unit', () => {
    const { sizes, unitNanos } = calibrate(steppingClock(10 * TARGET_UNIT_NANOS));
    for (const name of CPU) {
      expect(sizes[name], name).toBeLessThan(CPU_KERNELS[name].initialSize);
      expect(sizes[name], name).toBeGreaterThanOrEqual(1);
      // What calibrate reports is what its clock read for one unit, not a figure of its own.
      expect(unitNanos[name], name).toBe(10 * TARGET_UNIT_NANOS);
    }
  });

  it('a kernel whose unit already reads the target keeps its size', () => {
    const { sizes, unitNanos } = calibrate(steppingClock(TARGET_UNIT_NANOS));
    for (const name of CPU) {
      expect(sizes[name], name).toBe(CPU_KERNELS[name].initialSize);
      expect(unitNanos[name], name).toBe(TARGET_UNIT_NANOS);
    }
  });

  it('on the real clock every CPU kernel gets a size within its bounds and a measured unit', () => {
    const origin = originNow();
    const { sizes, unitNanos } = calibrate(() => nanosSince(origin));
    for (const name of CPU) {
      expect(Number.isInteger(sizes[name]), name).toBe(true);
      expect(sizes[name], name).toBeGreaterThanOrEqual(1);
      expect(sizes[name], name).toBeLessThanOrEqual(CPU_KERNELS[name].maxSize);
      expect(unitNanos[name], name).toBeGreaterThan(0);
    }
  });

  it('a backend worker says ready before calibrating any kernel (a module-only pool pays nothing)', async () => {
    const control = createControl();
    const data: QuantumWorkerData = {
      role: 'quantum',
      workerId: 0,
      origin: originNow().toString(),
      control: control.buffer,
    };
    let host!: WorkerHost;
    const ready = new Promise<Readonly<Record<string, number>>>((resolve, reject) => {
      host = new WorkerHost({
        entry: 'worker-entry.ts',
        workerData: { ...data },
        onMessage: (message) => {
          const m = message as Exclude<FromQuantumWorker, FlatEnd | typeof ENDS_READY>;
          if (m.type === 'ready') resolve(m.unitNanos);
        },
        onLost: (reason) => reject(new Error(reason)),
      });
    });
    try {
      expect(await ready).toEqual({});
    } finally {
      await host.retire();
    }
  });

  it("a kernel is calibrated on its first quantum, before the quantum's clock starts", () => {
    const origin = originNow();
    const clock = () => nanosSince(origin);
    const calibration: Calibration = { sizes: {}, unitNanos: {} };
    const runner = new QuantumRunner(clock, createControl().words, calibration);
    const dispatch = {
      splitId: 1,
      quantumNanos: 2_000_000,
      doneNanos: 0,
      work: { kernel: 'hash', totalNanos: 1_000_000 },
    } as unknown as Dispatch;
    const before = clock();
    const report = runner.run(dispatch, undefined) as QuantumReport;
    expect(Object.keys(calibration.unitNanos)).toEqual(['hash']);
    expect(calibration.unitNanos.hash).toBeGreaterThan(0);
    // Calibration warms the kernel up for 5 ms by this clock first: the quantum starts after.
    expect(report.startNanos - before).toBeGreaterThanOrEqual(5_000_000);
    expect(report.workNanos).toBeGreaterThan(0);
    // The second quantum of the same kernel calibrates nothing more.
    runner.run({ ...dispatch, splitId: 2 } as Dispatch, undefined);
    expect(Object.keys(calibration.unitNanos)).toEqual(['hash']);
  });
});
