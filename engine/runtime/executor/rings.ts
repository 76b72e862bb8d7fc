/**
 * Bounded rings for what the executor records (memory is bounded by design): Gantt spans,
 * columnar in typed arrays so recording a quantum allocates nothing, and recent events.
 * Readers keep a cursor (total written so far); what the ring overwrote before a reader got to
 * it is reported as dropped, never silently lost.
 */
import { SPAN_OUTCOMES, type EngineEvent, type SpanColumns } from '../../../shared/protocol.ts';
import type { QuantumOutcome } from '../backend.ts';

/** Index of `SPAN_OUTCOMES`; a switch, not a keyed lookup: it runs once per quantum. */
function outcomeIndex(outcome: QuantumOutcome): number {
  switch (outcome) {
    case 'yielded':
      return 0;
    case 'blocked':
      return 1;
    case 'finished':
      return 2;
    case 'failed':
      return 3;
    case 'cancelled':
      return 4;
  }
}

/** Distinct class names kept (never more than the ring holds spans); later ones share `(other)`. */
const MAX_CLASS_NAMES = 1024;
const OTHER = '(other)';

export interface SpanRead {
  columns: SpanColumns;
  /** Pass back as `from` on the next read. */
  cursor: number;
  /** Spans between `from` and the oldest still held (overwritten before this read). */
  dropped: number;
}

export class SpanRing {
  readonly capacity: number;
  private written = 0;
  private readonly worker: Int32Array;
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  private readonly job: Int32Array;
  private readonly task: Int32Array;
  private readonly split: Int32Array;
  private readonly level: Int8Array;
  private readonly outcome: Int8Array;
  private readonly cls: Int32Array;
  /** Class names, interned ring-wide; frames re-intern into a per-frame table. */
  private readonly classNames: string[] = [];
  private readonly classIndex = new Map<string, number>();
  /** Room is left for `(other)`, so at most min(1024, capacity) names are held. */
  private readonly maxNames: number;

  constructor(capacity = 65_536) {
    this.capacity = capacity;
    this.maxNames = Math.max(1, Math.min(MAX_CLASS_NAMES, capacity) - 1);
    this.worker = new Int32Array(capacity);
    this.start = new Float64Array(capacity);
    this.end = new Float64Array(capacity);
    this.job = new Int32Array(capacity);
    this.task = new Int32Array(capacity);
    this.split = new Int32Array(capacity);
    this.level = new Int8Array(capacity);
    this.outcome = new Int8Array(capacity);
    this.cls = new Int32Array(capacity);
  }

  /** Spans recorded since the engine started. */
  get total(): number {
    return this.written;
  }

  internClass(name: string): number {
    let i = this.classIndex.get(name);
    if (i === undefined && name !== OTHER && this.classNames.length >= this.maxNames) {
      return this.internClass(OTHER);
    }
    if (i === undefined) {
      i = this.classNames.length;
      this.classNames.push(name);
      this.classIndex.set(name, i);
    }
    return i;
  }

  record(
    worker: number,
    start: number,
    end: number,
    job: number,
    task: number,
    split: number,
    level: number,
    outcome: QuantumOutcome,
    clsIndex: number,
  ): void {
    const i = this.written % this.capacity;
    this.worker[i] = worker;
    this.start[i] = start;
    this.end[i] = end;
    this.job[i] = job;
    this.task[i] = task;
    this.split[i] = split;
    this.level[i] = level;
    this.outcome[i] = outcomeIndex(outcome);
    this.cls[i] = clsIndex;
    this.written++;
  }

  /** Cursor of the oldest span still held (everything before it was overwritten). */
  get oldest(): number {
    return Math.max(0, this.written - this.capacity);
  }

  // Field access by cursor (`oldest <= n < total`), for readers that fold millions of spans and
  // must not copy them into columns first (the run collector). No bounds checks: hot path.
  spanStart(n: number): number {
    return this.start[n % this.capacity]!;
  }
  spanEnd(n: number): number {
    return this.end[n % this.capacity]!;
  }
  spanTask(n: number): number {
    return this.task[n % this.capacity]!;
  }
  spanSplit(n: number): number {
    return this.split[n % this.capacity]!;
  }
  spanLevel(n: number): number {
    return this.level[n % this.capacity]!;
  }
  spanOutcome(n: number): number {
    return this.outcome[n % this.capacity]!;
  }
  /** Ring-wide class index of the span (see `className`). */
  spanClass(n: number): number {
    return this.cls[n % this.capacity]!;
  }
  className(index: number): string {
    return this.classNames[index] ?? '';
  }

  /** Spans from cursor `from` (a previous read's cursor, or 0) to now, at most `limit`. */
  read(from: number, limit = this.capacity): SpanRead {
    const oldest = Math.max(0, this.written - this.capacity);
    const first = Math.max(from, oldest, this.written - limit);
    const dropped = first - from;
    const names: string[] = [];
    const local = new Map<number, number>();
    const c: SpanColumns = {
      count: this.written - first,
      names,
      worker: [],
      start: [],
      end: [],
      job: [],
      task: [],
      split: [],
      level: [],
      outcome: [],
      cls: [],
    };
    for (let n = first; n < this.written; n++) {
      const i = n % this.capacity;
      const g = this.cls[i] ?? 0;
      let l = local.get(g);
      if (l === undefined) {
        l = names.length;
        names.push(this.classNames[g] ?? '');
        local.set(g, l);
      }
      c.worker.push(this.worker[i] ?? 0);
      c.start.push(this.start[i] ?? 0);
      c.end.push(this.end[i] ?? 0);
      c.job.push(this.job[i] ?? 0);
      c.task.push(this.task[i] ?? 0);
      c.split.push(this.split[i] ?? 0);
      c.level.push(this.level[i] ?? 0);
      c.outcome.push(this.outcome[i] ?? 0);
      c.cls.push(l);
    }
    return { columns: c, cursor: this.written, dropped: Math.max(0, dropped) };
  }
}

export function outcomeName(index: number): QuantumOutcome {
  return SPAN_OUTCOMES[index] ?? 'yielded';
}

/**
 * The last `capacity` items of a stream, overwritten in place: `since(cursor)` reads what was
 * written after a cursor (oldest first), `droppedSince(cursor)` counts what was overwritten before
 * that read, `newest(n)` reads backwards. Memory is the capacity, however long the stream.
 */
export class Ring<T> {
  private readonly items: T[] = [];
  private written = 0;
  constructor(readonly capacity: number) {}

  /** Items ever written (the cursor after the newest). */
  get total(): number {
    return this.written;
  }

  /** Items held now. */
  get size(): number {
    return Math.min(this.written, this.capacity);
  }

  push(item: T): void {
    if (this.capacity <= 0) return;
    if (this.items.length < this.capacity) this.items.push(item);
    else this.items[this.written % this.capacity] = item;
    this.written++;
  }

  /** Items written after `from` that the ring no longer holds. */
  droppedSince(from: number): number {
    return Math.max(0, this.written - this.capacity - from);
  }

  since(from: number): T[] {
    const out: T[] = [];
    for (let n = Math.max(from, this.written - this.capacity); n < this.written; n++) {
      out.push(this.items[n % this.capacity]!);
    }
    return out;
  }

  /** Appends up to `count` items to `out`, newest first. */
  newest(count: number, out: T[]): void {
    const stop = this.written - Math.min(count, this.size);
    for (let n = this.written - 1; n >= stop; n--) out.push(this.items[n % this.capacity]!);
  }

  find(match: (item: T) => boolean): T | undefined {
    return this.items.find(match);
  }
}

/** The last `capacity` engine events, for frames (a burst between two frames is counted, like spans). */
export class EventRing extends Ring<EngineEvent> {
  constructor(capacity = 1024) {
    super(capacity);
  }
}
