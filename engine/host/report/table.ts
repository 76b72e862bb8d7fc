/** Plain-text tables for the terminal: left-aligned first column, right-aligned numbers. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** A duration in ms, human scale: 850 µs, 12.3 ms, 4.56 s, 3.2 min, 1.5 h. */
export function fmtMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
