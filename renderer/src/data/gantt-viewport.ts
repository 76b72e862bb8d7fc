/**
 * The Gantt's visible time window: high-rate interaction state (wheel, drag) kept out of React.
 * `follow` (in the app store) pins the right edge to the engine's clock; zooming keeps the time
 * under the cursor fixed; panning turns follow off.
 */
export const MIN_WINDOW_MS = 0.05;
export const MAX_WINDOW_MS = 30 * 60_000;

export class GanttViewport {
  windowMs: number;
  /** Right edge when not following (ms, engine time). */
  endMs = 0;
  private readonly listeners = new Set<() => void>();

  constructor(windowMs = 10_000) {
    this.windowMs = windowMs;
  }

  subscribe(cb: () => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** factor < 1 zooms in; `anchor` in 0..1 is the fraction of the width that stays put. */
  zoom(factor: number, anchor = 1, currentEndMs = this.endMs): void {
    const next = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, this.windowMs * factor));
    const anchorMs = currentEndMs - (1 - anchor) * this.windowMs;
    this.endMs = anchorMs + (1 - anchor) * next;
    this.windowMs = next;
    this.changed();
  }

  setEnd(endMs: number): void {
    this.endMs = endMs;
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** Round tick step (1, 2, 5 × 10^k ms) giving roughly `targetTicks` ticks across the window. */
export function tickStep(windowMs: number, targetTicks = 8): number {
  const raw = windowMs / targetTicks;
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** Durations are written by the one shared formatter (the engine's alarm texts use it too). */
export { formatMs } from '../../../shared/lib/format.ts';
