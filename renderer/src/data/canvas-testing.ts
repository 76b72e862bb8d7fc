/** Test helpers for the Gantt's drawing: imported by tests only. */

/**
 * A 2D context that draws nothing and records the text it writes and the rectangles it adds (span
 * bars); every other call is a no-op, so `drawGantt`'s result says what it drew.
 */
export function recordingContext() {
  const texts: { text: string; y: number }[] = [];
  const rects: { x: number; y: number }[] = [];
  const target: Record<string, unknown> = {
    measureText: () => ({ width: 10 }),
    fillText: (text: string, _x: number, y: number) => texts.push({ text, y }),
    rect: (x: number, y: number) => rects.push({ x, y }),
  };
  const ctx = new Proxy(target, {
    get: (t, key) => (key in t ? t[key as string] : () => undefined),
    set: () => true,
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, texts, rects };
}

/** Plain colours for `drawGantt`'s theme argument. */
export const TEST_THEME = {
  background: '#000',
  laneAlt: '#111',
  grid: '#222',
  text: '#ccc',
  marker: '#00f',
  mixed: '#888',
};
