/**
 * A worker that dies before it is ready points at a broken environment (a loader that fails, a
 * memory limit too small to start): respawning it at once would spin. Each worker waits
 * 100 ms, 200 ms, … up to 5 s between such attempts; one successful start resets it.
 */
const FIRST_MS = 100;
const MAX_MS = 5_000;

export class BootBackoff {
  private readonly failures = new Map<number, number>();

  /** Counts a failed start of worker `id`; returns how long to wait before the next (ms). */
  failed(id: number): number {
    const count = (this.failures.get(id) ?? 0) + 1;
    this.failures.set(id, count);
    return Math.min(MAX_MS, FIRST_MS * 2 ** (count - 1));
  }

  started(id: number): void {
    this.failures.delete(id);
  }
}
