/**
 * PRIO priorities and their bands (docs/design.md §3.2): integers 0..100, smaller = more urgent,
 * grouped into five bands of twenty (the last one also holds 100). The one mapping from a
 * priority to its band: the quota alternative to aging, the Gantt's row for a PRIO split, and the
 * wait percentiles per band (`p0-19` …) all use it.
 */
export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 100;
export const BAND_COUNT = 5;
const BAND_WIDTH = 20;

/** Band index 0..4 of a priority: 0–19 → 0, …, 80–100 → 4 (out of range: the nearest band). */
export function bandOf(priority: number): number {
  return Math.min(BAND_COUNT - 1, Math.max(0, Math.floor(priority / BAND_WIDTH)));
}

/** `p0-19`, `p20-39`, …, `p80-100` for a band index. */
export function bandLabel(band: number): string {
  const low = band * BAND_WIDTH;
  const high = band === BAND_COUNT - 1 ? PRIORITY_MAX : low + BAND_WIDTH - 1;
  return `p${low}-${high}`;
}

/** Every band's label, most urgent first. */
export const BAND_LABELS: readonly string[] = Array.from({ length: BAND_COUNT }, (_, b) =>
  bandLabel(b),
);

/**
 * The label of the band a priority falls in: one of `BAND_LABELS`, not a new string (a frame's
 * read looks up a band per wait in progress, 100,000 of them with as many runs queued).
 */
export function bandLabelOf(priority: number): string {
  return BAND_LABELS[bandOf(priority)]!;
}
