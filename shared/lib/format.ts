/**
 * How every duration is written for people (ms in): the app's axes, tables and tooltips and the
 * engine's alarm texts use this one formatter, so the same wait reads the same everywhere.
 */
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
