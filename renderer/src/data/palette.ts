/**
 * Colours the Gantt and charts share. Jobs and classes hash into a palette of distinguishable
 * hues; levels get a fixed ramp from warm (level 0, interactive) to cool (level 4, long scans).
 */
export const CATEGORICAL = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#86bcb6',
  '#d37295',
  '#8cd17d',
];

export const LEVEL_COLORS = ['#f28e2b', '#edc948', '#59a14f', '#4e79a7', '#7b5fa8'];

/** Knuth's multiplicative hash: neighbouring job ids land on different hues. */
export function categoricalIndex(id: number): number {
  return (Math.imul(id, 2654435761) >>> 0) % CATEGORICAL.length;
}

export function levelColor(level: number): string {
  return LEVEL_COLORS[Math.min(Math.max(level, 0), LEVEL_COLORS.length - 1)]!;
}

/**
 * A chart series' colour by its label: levels (`L2`) and priority bands (`p40-59`) keep the level
 * ramp by their index, so the same band is the same colour on every chart; other labels (`fifo`,
 * `fair`) take the categorical palette by their position.
 */
export function seriesColor(label: string, position: number): string {
  const level = /^L(\d)$/.exec(label);
  if (level !== null) return levelColor(Number(level[1]));
  const band = /^p(\d+)-\d+$/.exec(label);
  if (band !== null) return levelColor(Math.floor(Number(band[1]) / 20));
  return CATEGORICAL[position % CATEGORICAL.length]!;
}
