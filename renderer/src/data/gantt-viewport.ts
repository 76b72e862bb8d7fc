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

export function formatMs(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1e-9) return '0';
  if (a >= 60_000) {
    // m:ss, with tenths when the value is not on a whole second (ticks closer than 1 s).
    const sign = ms < 0 ? '-' : '';
    const min = Math.floor(a / 60_000);
    const sec = (a - min * 60_000) / 1000;
    const text = Number.isInteger(Math.round(sec * 1000) / 1000) ? sec.toFixed(0) : sec.toFixed(1);
    return `${sign}${min}:${text.padStart(text.includes('.') ? 4 : 2, '0')}`;
  }
  if (a >= 1000) return `${(ms / 1000).toFixed(a >= 10_000 ? 0 : 1)} s`;
  if (a >= 1) return `${ms.toFixed(a >= 100 ? 0 : 1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}
