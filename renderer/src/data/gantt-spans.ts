/**
 * The Gantt's spans: the one span ring (`shared/lib/span-ring.ts`, columnar typed arrays — tens
 * of thousands of quanta are normal, so spans are never objects) with what drawing adds: times in
 * ms, palette slots computed once per span, and an index of pushed batches so a redraw skips
 * whole frames that ended before the visible window. `overwritten` counts what fell out of the
 * ring so the UI can say how much history is gone.
 */
import { SpanRing } from '../../../shared/lib/span-ring.ts';
import { CATEGORICAL, categoricalIndex } from './palette.ts';

export interface SpanInput {
  worker: number;
  startMs: number;
  endMs: number;
  job: number;
  task: number;
  split: number;
  level: number;
  /** Index into the class-name table of `Telemetry`. */
  cls: number;
  /** Index into the outcome-name table (yielded, blocked, finished, …). */
  outcome: number;
  /** A graph node's id (a graph run's span, `SpanColumns.node`); absent for other jobs' spans. */
  node?: string;
}

const BATCHES = 4096;

export class GanttSpans extends SpanRing {
  /** Palette slots computed once at push, so drawing never hashes per span per frame. */
  readonly jobColor: Uint8Array;
  readonly clsColor: Uint8Array;
  /**
   * A graph node's id per slot, null for other jobs' spans. Not interned with the class names: a
   * graph has up to 2^20 nodes, and the strings are the frames' own (one per node a frame names).
   */
  readonly nodeId: (string | null)[];
  /** Per pushed batch: the latest end time in it and `total` before it. */
  private readonly batchEnd: Float64Array;
  private readonly batchFirst: Float64Array;
  private batchHead = 0;
  private batchCount = 0;
  private open = false;

  constructor(capacity: number) {
    super(capacity);
    this.jobColor = new Uint8Array(capacity);
    this.clsColor = new Uint8Array(capacity);
    this.nodeId = new Array<string | null>(capacity).fill(null);
    this.batchEnd = new Float64Array(BATCHES);
    this.batchFirst = new Float64Array(BATCHES);
  }

  /** Spans overwritten since the last clear. */
  get overwritten(): number {
    return this.dropped;
  }

  /**
   * Groups the spans pushed until `endBatch()`: a frame carries the spans completed since the
   * previous frame, so whole batches can be skipped when they end before the visible window.
   */
  beginBatch(): void {
    this.batchFirst[this.batchHead] = this.total;
    this.batchEnd[this.batchHead] = -Infinity;
    this.open = true;
  }

  endBatch(): void {
    if (!this.open) return;
    this.open = false;
    this.batchHead = (this.batchHead + 1) % BATCHES;
    if (this.batchCount < BATCHES) this.batchCount++;
  }

  /** Index (0 = oldest retained) of the first span that may end at or after `t`. */
  firstEndingAfter(t: number): number {
    const oldest = this.oldest;
    for (let b = 0; b < this.batchCount; b++) {
      const j = (this.batchHead - this.batchCount + b + BATCHES) % BATCHES;
      if (this.batchEnd[j]! >= t) return Math.max(0, this.batchFirst[j]! - oldest);
    }
    return this.batchCount === 0 ? 0 : this.size;
  }

  push(s: SpanInput): void {
    if (this.capacity > 0) {
      const i = this.slotAt(this.total);
      this.jobColor[i] = categoricalIndex(s.job);
      this.clsColor[i] = s.cls % CATEGORICAL.length;
      this.nodeId[i] = s.node ?? null;
    }
    this.record(s.worker, s.startMs, s.endMs, s.job, s.task, s.split, s.level, s.outcome, s.cls);
    if (this.open && s.endMs > this.batchEnd[this.batchHead]!)
      this.batchEnd[this.batchHead] = s.endMs;
  }

  /** Time range covered by retained spans, or null when empty. */
  extent(): { startMs: number; endMs: number } | null {
    if (this.size === 0) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < this.size; k++) {
      const i = this.slot(k);
      if (this.start[i]! < lo) lo = this.start[i]!;
      if (this.end[i]! > hi) hi = this.end[i]!;
    }
    return { startMs: lo, endMs: hi };
  }

  override clear(): void {
    super.clear();
    this.batchHead = 0;
    this.batchCount = 0;
    this.open = false;
  }
}
