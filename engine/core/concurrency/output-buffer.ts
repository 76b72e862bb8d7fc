/**
 * A task's output buffer, as much of it as the split concurrency controller reads: its
 * utilisation (docs/design.md §9; in Trino the task's `OutputBuffer` utilisation, which the task
 * handle's utilisation supplier returns). The task's leaf splits fill it as they run and a
 * downstream consumer drains it at a steady rate:
 *
 *   level += producedPerSec × (seconds a leaf split of the task ran)   at each quantum end
 *   level −= consumedPerSec × (seconds of backend time passed)         continuously
 *
 * clamped to 0..capacity; utilisation = level / capacity. A full buffer does not block the
 * producers (Trino's would): only the controller reads it. Pure: time is passed in (ns).
 */

export interface OutputBufferSpec {
  /** What the buffer holds, in pages. */
  readonly capacity: number;
  /** Pages a leaf split adds per second it runs. */
  readonly producedPerSec: number;
  /** Pages the consumer takes per second of backend time. */
  readonly consumedPerSec: number;
}

const NS_PER_S = 1e9;

export class OutputBuffer {
  private level = 0;
  private lastNanos: number;

  constructor(
    private readonly spec: OutputBufferSpec,
    nowNanos: number,
  ) {
    this.lastNanos = nowNanos;
  }

  /** A leaf split of the task ran `ranNanos`, ending at `nowNanos`. */
  produced(ranNanos: number, nowNanos: number): void {
    this.drainTo(nowNanos);
    this.level = Math.min(
      this.spec.capacity,
      this.level + (this.spec.producedPerSec * ranNanos) / NS_PER_S,
    );
  }

  /** Pages held / capacity at `nowNanos`, 0..1. */
  utilization(nowNanos: number): number {
    this.drainTo(nowNanos);
    return this.spec.capacity > 0 ? this.level / this.spec.capacity : 0;
  }

  private drainTo(nowNanos: number): void {
    const elapsed = Math.max(0, nowNanos - this.lastNanos);
    this.lastNanos = Math.max(this.lastNanos, nowNanos);
    this.level = Math.max(0, this.level - (this.spec.consumedPerSec * elapsed) / NS_PER_S);
  }
}
