/**
 * Latency and wait percentiles per job class and per priority band, over a window: the last
 * `STATS_WINDOW_SECONDS` of backend time, or since the last `reset` (a `resetStats` command, or a
 * preset or workload change) when that is later. The summaries are the headless report's own
 * (report/summary-stats.ts), so the app and `schedlab run` give the same p95 for the same samples.
 *
 * The window moves in `SLICE_SECONDS` steps: each key keeps one summary per slice plus their
 * running total, and a slice that leaves the window is taken out of the total. A read covers the
 * current slice and the ones before it back to the window's length (`sinceNanos` says exactly
 * from where). A slice starts at a frame (`frameSent`: the first frame past its 10 s boundary),
 * never between two: a frame's samples (`Frame.samples`, those since the frame before) then lie
 * wholly inside the window or wholly outside it, so the app's distributions, drawn from the
 * frames after `sinceNanos`, count what the tables count. Cut at the boundary itself, the first
 * frame in the window brought samples from before it — at 100× a frame is 10 s of backend time. Memory is bounded: slices per key are few and fixed, keys past `maxClasses` share
 * one `(other)` row, and a key with nothing left in its window is dropped — so a class from a
 * workload that stopped a minute ago leaves the table.
 *
 * Waits mean what a headless report's `waitMs` means (report/collector.ts): one sample per wait
 * of a split for a worker, recorded when the wait ends, plus — in each read — the waits still in
 * progress up to now. Latency is submit → end of succeeded jobs, as in the report.
 */
import { BAND_LABELS, bandLabelOf, bandOf } from '../../../shared/lib/priority-bands.ts';
import {
  STATS_WINDOW_SECONDS,
  type Percentiles,
  type PercentileTable,
} from '../../../shared/protocol.ts';
import { Summary } from '../report/summary-stats.ts';
import { PendingCounts } from './sample-counts.ts';

/** The window's step: it covers between (window − slice) and window of backend time. */
export const SLICE_SECONDS = 10;
const SLICE_NANOS = SLICE_SECONDS * 1e9;
/** Slices a read covers: the current one and those before it within the window. */
const SLICES = Math.round(STATS_WINDOW_SECONDS / SLICE_SECONDS);

/** A table's read with open samples visited one by one (`Table.openReader`). */
export interface OpenReader {
  readonly visit: (cls: string, priority: number, nanos: number) => void;
  readonly finish: () => PercentileTable;
}

/** The open samples of one key: their summary and longest. */
interface OpenSummary {
  readonly summary: Summary;
  max: number;
}

const sliceOf = (nanos: number) => Math.floor(nanos / SLICE_NANOS);

/** One key's samples: a summary per slice (oldest first) and their total. */
class Windowed {
  private readonly slices: { index: number; summary: Summary }[] = [];
  readonly total = new Summary();
  /** The last read's figures, until a sample comes or a slice leaves (most keys, most frames). */
  private cached: Percentiles | null = null;

  record(slice: number, nanos: number): void {
    let last = this.slices.at(-1);
    if (last === undefined || last.index !== slice) {
      last = { index: slice, summary: new Summary() };
      this.slices.push(last);
    }
    last.summary.record(nanos);
    this.total.record(nanos);
    this.cached = null;
  }

  get percentiles(): Percentiles {
    return (this.cached ??= percentiles(this.total, this.max));
  }

  /** Takes out the slices before `firstSlice`; true when nothing is left. */
  expire(firstSlice: number): boolean {
    while (this.slices.length > 0 && this.slices[0]!.index < firstSlice) {
      this.total.fold(this.slices.shift()!.summary, -1);
      this.cached = null;
    }
    return this.slices.length === 0;
  }

  get max(): number {
    let max = 0;
    for (const s of this.slices) if (s.summary.max > max) max = s.summary.max;
    return max;
  }
}

function percentiles(total: Summary, maxNanos: number): Percentiles {
  return { count: total.count, ...total.toMs(1, maxNanos) };
}

class Table {
  private readonly byClass = new Map<string, Windowed>();
  private readonly byBand = new Map<string, Windowed>();
  /** Samples since the last frame, for `Frame.samples` (the app's ranges). */
  readonly pending = new PendingCounts();

  constructor(
    private readonly maxClasses: number,
    private readonly window: StatsWindow,
  ) {}

  record(cls: string, priority: number, nanos: number): void {
    const slice = this.window.current;
    const key = this.classKey(cls);
    const band = bandLabelOf(priority);
    get(this.byClass, key).record(slice, nanos);
    get(this.byBand, band).record(slice, nanos);
    this.pending.record(key, band, nanos);
  }

  /** Percentiles over the window at `now` of what was recorded. */
  read(): PercentileTable {
    return this.openReader().finish();
  }

  /**
   * `read` with samples still open (waits in progress) counted in this read only — an open wait
   * is recorded for good when it ends: `visit` each, then `finish` for the table. With 100,000
   * runs queued a visitor, not a list: an object per wait, then an array per class, made a
   * frame's read take tens of ms.
   */
  openReader(): OpenReader {
    const openByClass = new Map<string, OpenSummary>();
    const openByBand = new Map<string, OpenSummary>();
    // One lookup a wait: with 100,000 queued, keying each by class and band took most of a read.
    const ofClass = new Map<string, OpenSummary>();
    const ofBand: (OpenSummary | undefined)[] = [];
    return {
      visit: (cls, priority, nanos) => {
        let c = ofClass.get(cls);
        if (c === undefined) {
          c = entry(openByClass, this.openClassKey(cls, openByClass));
          ofClass.set(cls, c);
        }
        const band = bandOf(priority);
        const b = (ofBand[band] ??= entry(openByBand, BAND_LABELS[band]!));
        record(c, nanos);
        record(b, nanos);
      },
      finish: () => {
        const first = this.window.firstSlice();
        return {
          byClass: summarize(this.byClass, openByClass, first),
          byBand: summarize(this.byBand, openByBand, first),
        };
      },
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
  private openClassKey(cls: string, open: Map<string, OpenSummary>): string {
    if (this.byClass.has(cls) || open.has(cls)) return cls;
    let keys = this.byClass.size;
    for (const k of open.keys()) if (!this.byClass.has(k)) keys++;
    return keys < this.maxClasses ? cls : '(other)';
  }
}

function get(map: Map<string, Windowed>, key: string): Windowed {
  let entry = map.get(key);
  if (entry === undefined) map.set(key, (entry = new Windowed()));
  return entry;
}

/** `key`'s open samples in `map`, added when new. */
function entry(map: Map<string, OpenSummary>, key: string): OpenSummary {
  let open = map.get(key);
  if (open === undefined) map.set(key, (open = { summary: new Summary(), max: 0 }));
  return open;
}

function record(open: OpenSummary, nanos: number): void {
  open.summary.record(nanos);
  if (nanos > open.max) open.max = nanos;
}

function summarize(
  map: Map<string, Windowed>,
  open: Map<string, OpenSummary>,
  firstSlice: number,
): Record<string, Percentiles> {
  for (const [key, entry] of map) if (entry.expire(firstSlice)) map.delete(key);
  const out: Record<string, Percentiles> = {};
  const keys = [...new Set([...map.keys(), ...open.keys()])].sort();
  for (const key of keys) {
    const entry = map.get(key);
    const extra = open.get(key);
    if (extra === undefined) {
      out[key] = entry!.percentiles;
      continue;
    }
    const merged = new Summary();
    if (entry !== undefined) merged.fold(entry.total, 1);
    merged.fold(extra.summary, 1);
    out[key] = percentiles(merged, Math.max(entry?.max ?? 0, extra.max));
  }
  return out;
}

/**
 * Where the tables' window starts: the later of the last reset and the oldest slice read. Slices
 * are numbered by the 10 s of backend time they start in, and start at a frame (see the header).
 */
class StatsWindow {
  /** The slice samples are recorded in now. */
  current = 0;
  /** Where each recent slice started (backend ns), oldest first: the window's start is one. */
  private readonly starts: { index: number; at: number }[] = [{ index: 0, at: 0 }];
  private resetAt = -Infinity;
  private resetSlice = -Infinity;

  /** A frame carrying the samples up to `now` went out: a later sample may start a new slice. */
  frameSent(now: number): void {
    const index = sliceOf(now);
    if (index <= this.current) return;
    this.current = index;
    this.starts.push({ index, at: now });
    if (this.starts.length > SLICES) this.starts.shift();
  }

  firstSlice(): number {
    return Math.max(this.current - SLICES + 1, this.resetSlice);
  }

  sinceNanos(): number {
    const first = this.current - SLICES + 1;
    const start = this.starts.find((s) => s.index >= first)?.at ?? 0;
    return Math.max(0, this.resetAt, start);
  }

  /** Samples of the reset's own slice recorded before it are gone (the tables were cleared). */
  reset(now: number): void {
    this.resetAt = now;
    this.resetSlice = this.current;
  }
}

/**
 * Job latency (submit → end of succeeded jobs) and split waits: each stretch a split spent in the ready queue (from
 * creation or admission to its first quantum, back in the queue after a quantum, after waking
 * from blocked or a retry backoff), one sample each; and leaf splits' queued time in admission.
 */
export class LatencyStats {
  private readonly window = new StatsWindow();
  readonly latency: Table;
  readonly wait: Table;
  /** Leaf splits' time in admission before the ready queue (Trino's queued time), one each. */
  readonly queued: Table;
  constructor(maxClasses = 32) {
    this.latency = new Table(maxClasses, this.window);
    this.wait = new Table(maxClasses, this.window);
    this.queued = new Table(maxClasses, this.window);
  }

  /** Backend time (ns) the window starts at (`Frame.statsSinceNanos`). */
  sinceNanos(): number {
    return this.window.sinceNanos();
  }

  /** A frame went out with the samples up to `now` (the window may start a new slice). */
  frameSent(now: number): void {
    this.window.frameSent(now);
  }

  /** Empties both tables; the window starts again at `now`. */
  reset(now: number): void {
    this.window.reset(now);
    this.latency.reset();
    this.wait.reset();
    this.queued.reset();
  }
}
