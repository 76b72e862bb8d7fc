import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full, synchronous GC without `--expose-gc` on the command line (the flag is set at run time
 * and `gc` taken from a fresh context, as jest's leak detector does).
 */
export const forceGc: () => void = (() => {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === 'function') return own;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * Waits until this process has been idle for a 250 ms window (its threads together used under
 * 5 % of one core), at most `limitMs`; returns the CPU share of the last window. A suite's
 * leftovers — pools' threads still winding down, the collector sweeping their garbage — would
 * otherwise run inside the next suite's timed runs: after the pool suite the process used 115 ms
 * of CPU in its next idle second, and a 10k-node graph run there took 0.6–0.9 ms, then 0.2.
 */
export async function untilIdle(limitMs = 10_000): Promise<number> {
  const WINDOW_MS = 250;
  const from = performance.now();
  for (;;) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const used = process.cpuUsage(cpu);
    const share = (used.user + used.system) / 1000 / (performance.now() - t);
    if (share < 0.05 || performance.now() - from > limitMs) return share;
  }
}
