/**
 * Every benchmark reports figures as a value next to a baseline measured side by side in the same
 * run; `ratio` is value / baseline (see each figure's note for which direction is better).
 */
export interface Figure {
  value: number;
  unit: string;
  baseline: number;
  ratio: number;
}

export class BenchReport {
  readonly figures: Record<string, Figure> = {};

  add(name: string, value: number, unit: string, baseline: number): void {
    const ratio = baseline === 0 ? 0 : value / baseline;
    this.figures[name] = {
      value: round(value),
      unit,
      baseline: round(baseline),
      ratio: round(ratio),
    };
    console.log(
      `  ${name.padEnd(44)} ${fmt(value).padStart(12)} ${unit.padEnd(10)} baseline ${fmt(baseline).padStart(12)}  ratio ${ratio.toFixed(3)}`,
    );
  }
}

/** Runs `fn` repeatedly for at least `minMs`, returns ops per second given ops per call. */
export function throughput(fn: () => void, opsPerCall: number, minMs = 300): number {
  fn(); // warm-up: let the JIT see the code once before timing
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    fn();
    calls++;
    elapsed = performance.now() - start;
  }
  return (calls * opsPerCall) / (elapsed / 1000);
}

function round(x: number): number {
  return Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 1000) / 1000;
}

function fmt(x: number): string {
  return Math.abs(x) >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toFixed(3);
}
