/**
 * Turns the spans of one lane into the rectangles actually drawn. Spans narrower than `minPx`
 * cannot be told apart on screen; drawing each one would cost a draw call per quantum for no
 * information, so touching sub-pixel spans are merged into one run. A run keeps its colour when
 * every span in it agrees, else it takes `mixedColor` (many different jobs in one pixel column).
 * Wide spans are drawn as themselves so their colour and edges stay exact.
 */
export interface Rect {
  x: number;
  w: number;
  color: number;
}

export const MIXED = -1;

export class LaneMerger {
  private x0 = 0;
  private x1 = 0;
  private color = 0;
  private open = false;
  private merged = false;

  constructor(
    private readonly emit: (x: number, w: number, color: number) => void,
    private readonly minPx = 1,
  ) {}

  /** Spans must arrive in time order within the lane. */
  add(x0: number, x1: number, color: number): void {
    const narrow = x1 - x0 < this.minPx;
    if (this.open) {
      const touching = x0 - this.x1 < this.minPx;
      const runNarrow = this.merged || this.x1 - this.x0 < this.minPx;
      if (touching && narrow && runNarrow) {
        if (color !== this.color) this.color = MIXED;
        if (x1 > this.x1) this.x1 = x1;
        this.merged = true;
        return;
      }
      this.flush();
    }
    this.x0 = x0;
    this.x1 = x1;
    this.color = color;
    this.open = true;
    this.merged = false;
  }

  flush(): void {
    if (!this.open) return;
    this.open = false;
    // A merged run is at least one pixel wide so dense activity never vanishes.
    this.emit(this.x0, Math.max(this.x1 - this.x0, this.minPx), this.color);
  }
}

/** Convenience for tests and small inputs: merges one lane's spans into rectangles. */
export function mergeLane(
  spans: readonly { startMs: number; endMs: number; color: number }[],
  originMs: number,
  pxPerMs: number,
  minPx = 1,
): Rect[] {
  const out: Rect[] = [];
  const m = new LaneMerger((x, w, color) => out.push({ x, w, color }), minPx);
  for (const s of spans)
    m.add((s.startMs - originMs) * pxPerMs, (s.endMs - originMs) * pxPerMs, s.color);
  m.flush();
  return out;
}
