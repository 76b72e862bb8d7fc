/**
 * How every duration is written for people (ms in): the app's axes, tables and tooltips and the
 * engine's alarm texts use this one formatter, so the same wait reads the same everywhere.
 */
export function formatMs(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1e-9) return '0';
  if (a >= 60_000) {
    // m:ss, with tenths when the value is not on a whole second (ticks closer than 1 s). Rounded
    // before it is split into minutes and seconds, so 119,999.6 ms reads 2:00, not 1:60.
    const sign = ms < 0 ? '-' : '';
    const whole = Math.round(a) % 1000 === 0;
    const units = whole ? Math.round(a / 1000) : Math.round(a / 100); // seconds, or tenths
    const perMinute = whole ? 60 : 600;
    const min = Math.floor(units / perMinute);
    const rest = units - min * perMinute;
    const text = whole ? String(rest).padStart(2, '0') : (rest / 10).toFixed(1).padStart(4, '0');
    return `${sign}${min}:${text}`;
  }
  if (a >= 1000) return `${(ms / 1000).toFixed(a >= 10_000 ? 0 : 1)} s`;
  if (a >= 1) return `${ms.toFixed(a >= 100 ? 0 : 1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}
