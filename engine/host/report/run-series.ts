/**
 * A run's queue depth and charged time per level over time, for the app's Compare view (per
 * config, side by side). Sampled every step of the run and bounded: at most `MAX_POINTS` points,
 * kept by doubling the stride (every 2nd, 4th… step) when full, so a long run still covers its
 * whole length evenly with memory fixed.
 */
import type { CompareSeries } from '../../../shared/protocol.ts';

export const MAX_POINTS = 240;

interface LevelSample {
  depth: number;
  label: string;
  chargedNanos?: number;
  scheduledNanos: number;
}

export class RunSeries {
  private tMs: number[] = [];
  private depth: number[][] = [];
  private chargedMs: number[][] = [];
  private labels: string[] = [];
  private stride = 1;
  private step = 0;

  constructor(
    private readonly originNanos: number,
    private readonly scale: number,
  ) {}

  add(nowNanos: number, levels: readonly LevelSample[]): void {
    if (this.step++ % this.stride !== 0) return;
    if (this.tMs.length >= MAX_POINTS) {
      const keep = <T>(a: T[]) => a.filter((_, i) => i % 2 === 0);
      this.tMs = keep(this.tMs);
      this.depth = keep(this.depth);
      this.chargedMs = keep(this.chargedMs);
      this.stride *= 2;
      // This step is kept only if it lands on the new stride.
      if ((this.step - 1) % this.stride !== 0) return;
    }
    this.labels = levels.map((l) => l.label);
    this.tMs.push(Math.round(((nowNanos - this.originNanos) / this.scale / 1e6) * 1000) / 1000);
    this.depth.push(levels.map((l) => l.depth));
    this.chargedMs.push(
      levels.map((l) => Math.round((l.chargedNanos ?? l.scheduledNanos) / this.scale / 1e3) / 1e3),
    );
  }

  toWire(): CompareSeries {
    return { labels: this.labels, tMs: this.tMs, depth: this.depth, chargedMs: this.chargedMs };
  }
}
