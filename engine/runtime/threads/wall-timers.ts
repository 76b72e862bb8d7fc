/**
 * Timers on the threads backend's clock (`Backend.setTimer`), all cleared at once on close.
 * Node's timers count from the event loop's cached millisecond clock and may fire a little early
 * by the backend's clock: a timer re-arms until backend time has really reached its deadline.
 */
export class WallTimers {
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(private readonly now: () => number) {}

  /** Runs `fn` at backend time `atNanos`; returns a canceller. */
  set(atNanos: number, fn: () => void): () => void {
    let timer: NodeJS.Timeout;
    const arm = (): void => {
      timer = setTimeout(
        () => {
          this.pending.delete(timer);
          if (this.now() < atNanos) arm();
          else fn();
        },
        Math.max(0, (atNanos - this.now()) / 1e6),
      );
      this.pending.add(timer);
    };
    arm();
    return () => {
      clearTimeout(timer);
      this.pending.delete(timer);
    };
  }

  /** Timers not yet fired or cancelled. */
  get size(): number {
    return this.pending.size;
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
