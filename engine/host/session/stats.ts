/**
 * Latency and wait percentiles per job class and per priority band, in HDR histograms
 * (hdr-histogram-js): fixed memory per key whatever the number of samples, and a bounded number
 * of keys (classes past `maxClasses` share one `(other)` row). Values are recorded in µs and
 * reported in ms.
 *
 * Waits mean what a headless report's `waitMs` means (report/collector.ts): one sample per
 * wait of a split for a worker, recorded when the wait ends, plus — in each read — the waits
 * still in progress up to now, so a class that has waited for a minute without running shows a
 * minute, not nothing.
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

/** A wait still in progress: its class, base priority and how long it has lasted (ns). */
export interface OpenSample {
  readonly cls: string;
  readonly priority: number;
  readonly nanos: number;
}

function toMicros(nanos: number): number {
  return Math.min(MAX_MICROS, Math.max(1, Math.round(nanos / 1000)));
}

class Table {
  private readonly byClass = new Map<string, Entry>();
  private readonly byBand = new Map<string, Entry>();
  /** Scratch for merging open samples into a key's histogram at read time (reused). */
  private scratch: hdr.Histogram | null = null;
  constructor(private readonly maxClasses: number) {}

  record(cls: string, priority: number, nanos: number): void {
    const micros = toMicros(nanos);
    record(this.get(this.byClass, this.classKey(cls)), micros);
    record(this.get(this.byBand, bandLabelOf(priority)), micros);
  }

  /**
   * Percentiles of what was recorded plus `open` samples (counted in this read only: an open wait
   * is recorded for good when it ends).
   */
  read(open: readonly OpenSample[] = []): PercentileTable {
    if (open.length === 0) {
      return { byClass: summarize(this.byClass), byBand: summarize(this.byBand) };
    }
    const openByClass = new Map<string, number[]>();
    const openByBand = new Map<string, number[]>();
    for (const s of open) {
      const micros = toMicros(s.nanos);
      push(openByClass, this.openClassKey(s.cls, openByClass), micros);
      push(openByBand, bandLabelOf(s.priority), micros);
    }
    return {
      byClass: this.summarizeWith(this.byClass, openByClass),
      byBand: this.summarizeWith(this.byBand, openByBand),
    };
  }

  reset(): void {
    this.byClass.clear();
    this.byBand.clear();
  }

  private classKey(cls: string): string {
    return this.byClass.has(cls) || this.byClass.size < this.maxClasses ? cls : '(other)';
  }

  /** `classKey` for a class that may have no entry yet, without creating one. */
  private openClassKey(cls: string, open: Map<string, number[]>): string {
    if (this.byClass.has(cls) || open.has(cls)) return cls;
    let keys = this.byClass.size;
    for (const k of open.keys()) if (!this.byClass.has(k)) keys++;
    return keys < this.maxClasses ? cls : '(other)';
  }

  private summarizeWith(
    map: Map<string, Entry>,
    open: Map<string, number[]>,
  ): Record<string, Percentiles> {
    const out: Record<string, Percentiles> = {};
    const keys = [...new Set([...map.keys(), ...open.keys()])].sort();
    for (const key of keys) {
      const entry = map.get(key);
      const extra = open.get(key);
      if (extra === undefined) {
        out[key] = entry!.summary ??= summaryOf(entry!);
        continue;
      }
      const h = (this.scratch ??= newHistogram());
      h.reset();
      let sum = entry?.sumMicros ?? 0;
      if (entry !== undefined) h.add(entry.histogram);
      for (const micros of extra) {
        h.recordValue(micros);
        sum += micros;
      }
      out[key] = summaryOf({ histogram: h, sumMicros: sum, summary: null });
    }
    return out;
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

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
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

/**
 * Job latency (submit → end) and split waits: each stretch a split spent in the ready queue (from
 * creation or admission to its first quantum, back in the queue after a quantum, after waking
 * from blocked or a retry backoff), one sample each; and leaf splits' queued time in admission.
 */
export class LatencyStats {
  readonly latency: Table;
  readonly wait: Table;
  /** Leaf splits' time in admission before the ready queue (Trino's queued time), one each. */
  readonly queued: Table;
  constructor(maxClasses = 32) {
    this.latency = new Table(maxClasses);
    this.wait = new Table(maxClasses);
    this.queued = new Table(maxClasses);
  }
  reset(): void {
    this.latency.reset();
    this.wait.reset();
    this.queued.reset();
  }
}
