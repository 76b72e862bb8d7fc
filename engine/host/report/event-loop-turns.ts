/**
 * A simulated run holds the host's event loop while it computes: a host (a live session's
 * `compare`) gives it a turn every `TURN_EVERY_MS` of wall time, so frames and answers go out
 * meanwhile. One pacer for job runs (run-workload.ts `driveSim`) and graph runs (run-graph.ts).
 */

/** Wall time a simulated run goes on before it gives the event loop a turn (ms). */
export const TURN_EVERY_MS = 20;

export class EventLoopTurns {
  private last = performance.now();

  /** A turn of the event loop (`setImmediate`) when `TURN_EVERY_MS` passed since the last. */
  async take(): Promise<void> {
    if (performance.now() - this.last < TURN_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
