import { describe, expect, it } from 'vitest';
import type { KernelName } from '../backend.ts';
import { nanosSince, originNow } from './clock.ts';
import { createControl } from './control.ts';
import { calibrate, CPU_KERNELS } from './kernels.ts';
import type { FromQuantumWorker, QuantumWorkerData } from './protocol.ts';
import { WorkerHost } from './worker-host.ts';

// Issue 3 asks for kernel units of ≈50–200 µs: small enough that a quantum ends (or a cancel
// lands) within a fraction of a millisecond, large enough that reading the clock between units
// costs nothing. The bounds leave room for a loaded machine, not for a unit of 10 ms or 1 µs.
const LOW = 20_000;
const HIGH = 1_000_000;
const CPU: Exclude<KernelName, 'sleep'>[] = ['hash', 'sort', 'compress', 'matmul', 'spin'];

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

describe('kernel units', { timeout: 30_000 }, () => {
  it('calibrate() sizes every CPU kernel so that a unit takes about 50–200 µs', () => {
    const origin = originNow();
    const clock = (): number => nanosSince(origin);
    const { sizes, unitNanos } = calibrate(clock);
    for (const name of CPU) {
      expect(unitNanos[name], name).toBeGreaterThanOrEqual(LOW);
      expect(unitNanos[name], name).toBeLessThanOrEqual(HIGH);
      // Timed again, not taken from calibrate's own reading.
      const took: number[] = [];
      for (let i = 0; i < 21; i++) {
        const start = clock();
        CPU_KERNELS[name].unit(sizes[name]!);
        took.push(clock() - start);
      }
      expect(median(took), name).toBeGreaterThanOrEqual(LOW);
      expect(median(took), name).toBeLessThanOrEqual(HIGH);
    }
  });

  it("a backend worker's ready message reports units in that range for every CPU kernel", async () => {
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
          const m = message as FromQuantumWorker;
          if (m.type === 'ready') resolve(m.unitNanos);
        },
        onLost: (reason) => reject(new Error(reason)),
      });
    });
    try {
      const unitNanos = await ready;
      expect(Object.keys(unitNanos).sort()).toEqual([...CPU].sort());
      for (const name of CPU) {
        expect(unitNanos[name], name).toBeGreaterThanOrEqual(LOW);
        expect(unitNanos[name], name).toBeLessThanOrEqual(HIGH);
      }
    } finally {
      await host.retire();
    }
  });
});
