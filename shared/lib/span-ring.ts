/**
 * The one Gantt span ring: the newest `capacity` quanta in columnar typed arrays, so recording a
 * span allocates nothing and memory is the capacity however long a run goes (memory bounded by
 * design). The executor records its quanta here, the central graph executor its nodes', the
 * session buffers graph spans for frames here, and the renderer keeps what frames brought here.
 *
 * A span is (worker, start, end, job, task, split, level, outcome, cls): `outcome` indexes
 * `QUANTUM_OUTCOMES`; `cls` is a class index — this ring's own class-name table when the recorder
 * interns through `internClass`, or a table the recorder keeps (the renderer's). Graph spans put
 * the graph's index in `task` and the node's index in `split`.
 *
 * Addressing, as `Ring`: a cursor `n` counts spans ever recorded since the last `clear`
 * (`oldest <= n < total` are held, at slot `slotAt(n)` of every column); `slot(i)` is the i-th
 * oldest held. A reader keeps a cursor and learns from `droppedSince` what was overwritten before
 * it came back. A capacity of 0 holds nothing and counts every span as dropped.
 */

/** Distinct class names kept (never more than the ring holds spans); later ones share `(other)`. */
const MAX_CLASS_NAMES = 1024;
const OTHER = '(other)';

/**
 * Gantt spans, columnar: entry i of every array describes span i. `cls` indexes `names`
 * (interned per frame); `outcome` indexes `SPAN_OUTCOMES`; times are backend ns.
 */
export interface SpanColumns {
  count: number;
  names: string[];
  worker: number[];
  start: number[];
  end: number[];
  job: number[];
  task: number[];
  split: number[];
  level: number[];
  outcome: number[];
  cls: number[];
  /**
   * Graph spans only: the node's id, indexing `names` (−1 for spans of regular jobs). Present
   * when the frame carries graph spans; their `job` is the graph run's `jobId`, `task` the index
   * of the graph in its workload, `split` the node index, `cls` the run's name.
   */
  node?: number[];
}

export interface SpanRead {
  columns: SpanColumns;
  /** Pass back as `from` on the next read. */
  cursor: number;
  /** Spans between `from` and the oldest still held (overwritten before this read). */
  dropped: number;
}

export class SpanRing {
  readonly capacity: number;
  // The columns, by slot. Readers index them directly (`start[slotAt(n)]`): no copy, no call.
  readonly worker: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly job: Int32Array;
  readonly task: Int32Array;
  readonly split: Int32Array;
  readonly level: Int8Array;
  readonly outcome: Int8Array;
  readonly cls: Int32Array;
  private written = 0;
  /** Class names, interned ring-wide; `read` re-interns them into a table per read. */
  private readonly classNames: string[] = [];
  private readonly classIndex = new Map<string, number>();
  /** Room is left for `(other)`, so at most min(1024, capacity) names are held. */
  private readonly maxNames: number;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`SpanRing capacity must be an integer >= 0, got ${capacity}`);
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

  /** Spans recorded since the last `clear` (the cursor after the newest). */
  get total(): number {
    return this.written;
  }

  /** Spans held now. */
  get size(): number {
    return Math.min(this.written, this.capacity);
  }

  /** Spans recorded that the ring no longer holds. */
  get dropped(): number {
    return Math.max(0, this.written - this.capacity);
  }

  /** Cursor of the oldest span still held (everything before it was overwritten). */
  get oldest(): number {
    return Math.max(0, this.written - this.capacity);
  }

  /** Spans recorded after cursor `from` that the ring no longer holds. */
  droppedSince(from: number): number {
    return Math.max(0, this.written - this.capacity - from);
  }

  /** Slot of the span at cursor `n` (`oldest <= n < total`; not checked: hot path). */
  slotAt(n: number): number {
    return n % this.capacity;
  }

  /** Slot of the i-th oldest span held (0 = oldest; `0 <= i < size`, not checked). */
  slot(i: number): number {
    return (this.written - this.size + i) % this.capacity;
  }

  /** Records one span; positional so a quantum's end allocates nothing. */
  record(
    worker: number,
    start: number,
    end: number,
    job: number,
    task: number,
    split: number,
    level: number,
    outcome: number,
    cls: number,
  ): void {
    if (this.capacity === 0) {
      this.written++;
      return;
    }
    const i = this.written % this.capacity;
    this.worker[i] = worker;
    this.start[i] = start;
    this.end[i] = end;
    this.job[i] = job;
    this.task[i] = task;
    this.split[i] = split;
    this.level[i] = level;
    this.outcome[i] = outcome;
    this.cls[i] = cls;
    this.written++;
  }

  /** The ring-wide index of class `name`; past the limit every new name shares `(other)`. */
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

  /** The class name at a ring-wide index from `internClass` ('' for any other). */
  className(index: number): string {
    return this.classNames[index] ?? '';
  }

  /**
   * Spans from cursor `from` (a previous read's cursor, or 0) to now, at most the newest `limit`,
   * copied into columns whose `names` hold only the classes they use (indexes from `internClass`).
   */
  read(from: number, limit = this.capacity): SpanRead {
    const first = Math.max(from, this.oldest, this.written - limit);
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
      const g = this.cls[i]!;
      let l = local.get(g);
      if (l === undefined) {
        l = names.length;
        names.push(this.classNames[g] ?? '');
        local.set(g, l);
      }
      c.worker.push(this.worker[i]!);
      c.start.push(this.start[i]!);
      c.end.push(this.end[i]!);
      c.job.push(this.job[i]!);
      c.task.push(this.task[i]!);
      c.split.push(this.split[i]!);
      c.level.push(this.level[i]!);
      c.outcome.push(this.outcome[i]!);
      c.cls.push(l);
    }
    return { columns: c, cursor: this.written, dropped: Math.max(0, first - from) };
  }

  /** Forgets every span and the count recorded (class names stay: indexes handed out hold). */
  clear(): void {
    this.written = 0;
  }
}
