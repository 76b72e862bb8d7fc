/**
 * Bounded rings for what the executor records (memory is bounded by design): Gantt spans,
 * columnar in typed arrays so recording a quantum allocates nothing, and recent events.
 * Readers keep a cursor (total written so far); what the ring overwrote before a reader got to
 * it is reported as dropped, never silently lost.
 */
import { outcomeIndex, type QuantumOutcome } from '../../../shared/lib/outcomes.ts';
import type { EngineEvent, SpanColumns } from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';

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

/** The last `capacity` engine events, for frames (a burst between two frames is counted, like spans). */
export class EventRing extends Ring<EngineEvent> {
  constructor(capacity = 1024) {
    super(capacity);
  }
}
