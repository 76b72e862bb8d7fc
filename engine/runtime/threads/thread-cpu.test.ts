import { afterEach, describe, expect, it } from 'vitest';
import { Driver, fixture, MS } from './fixtures/driver.ts';
import { threadCpuClock } from './thread-cpu.ts';
import { ThreadsBackend } from './threads-backend.ts';

// CPU time next to wall time per quantum (Linux: /proc/thread-self/schedstat). Elsewhere there is
// no per-thread clock, and quanta carry no `cpuNanos`.
const linux = process.platform === 'linux';

let backend: ThreadsBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

describe('thread CPU time', { timeout: 60_000 }, () => {
  it('counts this thread only: a busy loop advances it, a sleep does not (none off Linux)', async () => {
    const cpu = threadCpuClock();
    if (!linux) {
      expect(cpu).toBeNull();
      return;
    }
    expect(cpu).not.toBeNull();
    if (cpu === null) return;
    const before = cpu();
    const until = performance.now() + 30;
    while (performance.now() < until) {
      // busy on purpose
    }
    const busy = cpu() - before;
    expect(busy).toBeGreaterThan(0);
    const slept = cpu();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cpu() - slept).toBeLessThan(25 * MS);
  });

  it('each quantum carries its CPU time: a module that awaits uses far less than its wall time', async () => {
    backend = new ThreadsBackend({ workers: 1 });
    await backend.ready();
    const driver = new Driver(backend);
    const spin = await driver.quantum(1, { kernel: 'spin', totalNanos: 20 * MS }, 5_000 * MS);
    if (!linux) {
      expect(spin.cpuNanos).toBeUndefined();
      return;
    }
    expect(spin.cpuNanos).toBeGreaterThan(0);
    expect(spin.cpuNanos!).toBeLessThanOrEqual(spin.ranNanos * 1.01 + 0.5 * MS);
    const sleeps = { kernel: fixture('stuck.mjs', 'sleeps'), input: { ms: 300 }, totalNanos: 1 };
    const slept = await driver.quantum(2, sleeps, 5_000 * MS);
    expect(slept.ranNanos).toBeGreaterThanOrEqual(300 * MS);
    expect(slept.cpuNanos!).toBeLessThan(100 * MS);
  });
});
