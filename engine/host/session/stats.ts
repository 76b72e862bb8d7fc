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

/**
 * A histogram with the summary last read from it. Frames are built at 10 Hz and most keys see no
 * new sample between two frames, so a summary is recomputed only when the count has changed; the
 * mean is kept exactly from a running sum (the library's own mean walks every recorded value).
 */
interface Entry {
  readonly histogram: hdr.Histogram;
  sumMicros: number;
  summary: Percentiles | null;
}

class Table {
  private readonly byClass = new Map<string, Entry>();
  private readonly byBand = new Map<string, Entry>();
  constructor(private readonly maxClasses: number) {}

  record(cls: string, priority: number, nanos: number): void {
    const micros = Math.min(MAX_MICROS, Math.max(1, Math.round(nanos / 1000)));
    record(this.get(this.byClass, this.classKey(cls)), micros);
    record(this.get(this.byBand, bandLabelOf(priority)), micros);
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

  private get(map: Map<string, Entry>, key: string): Entry {
    let entry = map.get(key);
    if (entry === undefined) {
      entry = { histogram: newHistogram(), sumMicros: 0, summary: null };
      map.set(key, entry);
    }
    return entry;
  }
}

function record(entry: Entry, micros: number): void {
  entry.histogram.recordValue(micros);
  entry.sumMicros += micros;
  entry.summary = null;
}

function summarize(map: Map<string, Entry>): Record<string, Percentiles> {
  const out: Record<string, Percentiles> = {};
  for (const [key, entry] of [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out[key] = entry.summary ??= summaryOf(entry);
  }
  return out;
}

function summaryOf({ histogram: h, sumMicros }: Entry): Percentiles {
  return {
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
    mean: h.totalCount === 0 ? 0 : ms(sumMicros / h.totalCount),
  };
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
