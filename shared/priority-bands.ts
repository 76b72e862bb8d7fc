/**
 * PRIO priorities and their reporting bands (docs/design.md §3.2): integers 0..100, smaller =
 * more urgent, grouped into five bands of twenty (the last one also holds 100). The one band
 * mapping for telemetry labels, wait tables and charts.
 */
export const PRIORITY_MAX = 100;
export const BAND_COUNT = 5;
const BAND_WIDTH = 20;

/** Band index 0..4 of a priority: 0–19 → 0, …, 80–100 → 4 (out-of-range values clamp). */
export function bandOf(priority: number): number {
  const band = Math.floor(priority / BAND_WIDTH);
  return band < 0 ? 0 : band < BAND_COUNT ? band : BAND_COUNT - 1;
}

/** `p0-19`, `p20-39`, …, `p80-100`. */
export function bandLabel(band: number): string {
  const low = band * BAND_WIDTH;
  const high = band === BAND_COUNT - 1 ? PRIORITY_MAX : low + BAND_WIDTH - 1;
  return `p${low}-${high}`;
}

/** Every band's label, most urgent first. */
export const BAND_LABELS: readonly string[] = Array.from({ length: BAND_COUNT }, (_, b) =>
  bandLabel(b),
);
