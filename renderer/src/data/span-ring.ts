/**
 * Gantt spans in columnar typed arrays: tens of thousands of quanta are normal, so spans are never
 * objects. The ring keeps the newest `capacity` spans; `dropped` counts what fell out of it so
 * the UI can say how much history is gone.
 */
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
}

import { CATEGORICAL, categoricalIndex } from './palette.ts';

const BATCHES = 4096;

export class SpanRing {
  readonly capacity: number;
  readonly worker: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly job: Int32Array;
  readonly task: Int32Array;
  readonly split: Int32Array;
  readonly level: Int8Array;
  readonly cls: Int16Array;
  readonly outcome: Int8Array;
  /** Palette slots computed once at push, so drawing never hashes per span per frame. */
  readonly jobColor: Uint8Array;
  readonly clsColor: Uint8Array;
  private head = 0;
  private count = 0;
  /** Spans overwritten since the last clear. */
  overwritten = 0;
  /** Bumped on every change; canvases compare it to skip redundant redraws. */
  version = 0;
  /** Spans ever pushed; with `batches` it lets a reader skip batches that ended before a time. */
  pushed = 0;
  /** Per pushed batch: the latest end time in it and `pushed` before it. */
  private readonly batchEnd: Float64Array;
  private readonly batchFirst: Float64Array;
  private batchHead = 0;
  private batchCount = 0;
  private open = false;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.worker = new Int32Array(capacity);
    this.start = new Float64Array(capacity);
    this.end = new Float64Array(capacity);
    this.job = new Int32Array(capacity);
    this.task = new Int32Array(capacity);
    this.split = new Int32Array(capacity);
    this.level = new Int8Array(capacity);
    this.cls = new Int16Array(capacity);
    this.outcome = new Int8Array(capacity);
    this.jobColor = new Uint8Array(capacity);
    this.clsColor = new Uint8Array(capacity);
    this.batchEnd = new Float64Array(BATCHES);
    this.batchFirst = new Float64Array(BATCHES);
  }

  /**
   * Groups the spans pushed until `endBatch()`: a frame carries the spans completed since the
   * previous frame, so whole batches can be skipped when they end before the visible window.
   */
  beginBatch(): void {
    this.batchFirst[this.batchHead] = this.pushed;
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
    const oldest = this.pushed - this.count;
    for (let b = 0; b < this.batchCount; b++) {
      const j = (this.batchHead - this.batchCount + b + BATCHES) % BATCHES;
      if (this.batchEnd[j]! >= t) return Math.max(0, this.batchFirst[j]! - oldest);
    }
    return this.batchCount === 0 ? 0 : this.count;
  }

  get size(): number {
    return this.count;
  }

  push(s: SpanInput): void {
    const i = this.head;
    this.worker[i] = s.worker;
    this.start[i] = s.startMs;
    this.end[i] = s.endMs;
    this.job[i] = s.job;
    this.task[i] = s.task;
    this.split[i] = s.split;
    this.level[i] = s.level;
    this.cls[i] = s.cls;
    this.outcome[i] = s.outcome;
    this.jobColor[i] = categoricalIndex(s.job);
    this.clsColor[i] = s.cls % CATEGORICAL.length;
    this.head = (i + 1) % this.capacity;
    this.pushed++;
    if (this.open && s.endMs > this.batchEnd[this.batchHead]!)
      this.batchEnd[this.batchHead] = s.endMs;
    if (this.count < this.capacity) this.count++;
    else this.overwritten++;
    this.version++;
  }

  /** Physical slot of the i-th oldest span (0 = oldest), for reading the columns directly. */
  slot(i: number): number {
    return (this.head - this.count + i + this.capacity) % this.capacity;
  }

  /** Time range covered by retained spans, or null when empty. */
  extent(): { startMs: number; endMs: number } | null {
    if (this.count === 0) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < this.count; k++) {
      const i = this.slot(k);
      if (this.start[i]! < lo) lo = this.start[i]!;
      if (this.end[i]! > hi) hi = this.end[i]!;
    }
    return { startMs: lo, endMs: hi };
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
    this.overwritten = 0;
    this.pushed = 0;
    this.batchHead = 0;
    this.batchCount = 0;
    this.open = false;
    this.version++;
  }
}
