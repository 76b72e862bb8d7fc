/**
 * Latency and wait percentiles per job class and per priority band, in HDR histograms
 * (hdr-histogram-js): fixed memory per key whatever the number of samples, and a bounded number
 * of keys (classes past `maxClasses` share one `(other)` row). Values are recorded in µs and
 * reported in ms.
 */
import * as hdr from 'hdr-histogram-js';
import type { Percentiles, PercentileTable } from '../../../shared/protocol.ts';

const MAX_MICROS = 1e10; // ~2.8 h: longer latencies are clamped (counted, at the top bucket)
const BAND_LABELS = ['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100'];

export function bandLabelOf(priority: number): string {
  return BAND_LABELS[Math.min(4, Math.max(0, Math.floor(priority / 20)))]!;
}

function newHistogram(): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: MAX_MICROS,
    numberOfSignificantValueDigits: 2,
    autoResize: false,
  });
}

class Table {
  private readonly byClass = new Map<string, hdr.Histogram>();
  private readonly byBand = new Map<string, hdr.Histogram>();
  constructor(private readonly maxClasses: number) {}

  record(cls: string, priority: number, nanos: number): void {
    const micros = Math.min(MAX_MICROS, Math.max(1, Math.round(nanos / 1000)));
    this.get(this.byClass, this.classKey(cls)).recordValue(micros);
    this.get(this.byBand, bandLabelOf(priority)).recordValue(micros);
  }

  read(): PercentileTable {
    return { byClass: summarize(this.byClass), byBand: summarize(this.byBand) };
  }

  reset(): void {
    this.byClass.clear();
    this.byBand.clear();
  }

  private classKey(cls: string): string {
    return this.byClass.has(cls) || this.byClass.size < this.maxClasses ? cls : '(other)';
  }

  private get(map: Map<string, hdr.Histogram>, key: string): hdr.Histogram {
    let h = map.get(key);
    if (h === undefined) {
      h = newHistogram();
      map.set(key, h);
    }
    return h;
  }
}

function summarize(map: Map<string, hdr.Histogram>): Record<string, Percentiles> {
  const out: Record<string, Percentiles> = {};
  for (const [key, h] of [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out[key] = {
      count: h.totalCount,
      p50: ms(h.getValueAtPercentile(50)),
      p95: ms(h.getValueAtPercentile(95)),
      p99: ms(h.getValueAtPercentile(99)),
      max: ms(h.maxValue),
      mean: ms(h.mean),
    };
  }
  return out;
}

function ms(micros: number): number {
  return Math.round(micros) / 1000;
}

/** Job latency (submit → end) and split wait (time in admission FIFO and ready queue). */
export class LatencyStats {
  readonly latency: Table;
  readonly wait: Table;
  constructor(maxClasses = 32) {
    this.latency = new Table(maxClasses);
    this.wait = new Table(maxClasses);
  }
  reset(): void {
    this.latency.reset();
    this.wait.reset();
  }
}
