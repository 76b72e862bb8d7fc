/**
 * A bounded window of what a trace shows (DESIGN.md §6): the most recent spans and counter
 * samples, in rings, so a long run keeps the last `capacity` quanta and counts what it dropped.
 * Spans are fed from the executor's span ring (columnar reads, shared/protocol.ts `SpanColumns`).
 */
import { SPAN_OUTCOMES, type SpanColumns } from '../../../shared/protocol.ts';

export interface TraceSpan {
  worker: number;
  startNanos: number;
  endNanos: number;
  jobId: number;
  taskId: number;
  splitId: number;
  level: number;
  outcome: (typeof SPAN_OUTCOMES)[number];
  cls: string;
}

/** A sample of per-level queue depth and scheduled time at one moment. */
export interface CounterSample {
  timeNanos: number;
  depth: readonly number[];
  scheduledNanos: readonly number[];
}

class Ring<T> {
  private readonly items: T[] = [];
  private written = 0;
  constructor(readonly capacity: number) {}
  push(x: T): void {
    if (this.items.length < this.capacity) this.items.push(x);
    else this.items[this.written % this.capacity] = x;
    this.written++;
  }
  get dropped(): number {
    return Math.max(0, this.written - this.capacity);
  }
  toArray(): T[] {
    if (this.items.length < this.capacity) return [...this.items];
    const i = this.written % this.capacity;
    return [...this.items.slice(i), ...this.items.slice(0, i)];
  }
}

export class TraceWindow {
  private readonly spans: Ring<TraceSpan>;
  private readonly samples: Ring<CounterSample>;
  /** Graph edges between splits (flow events); bounded like the spans. */
  private readonly edges: Ring<readonly [from: number, to: number]>;

  constructor(capacity = 100_000) {
    this.spans = new Ring(capacity);
    this.samples = new Ring(Math.max(64, capacity >> 4));
    this.edges = new Ring(capacity);
  }

  get droppedSpans(): number {
    return this.spans.dropped;
  }

  addSpan(span: TraceSpan): void {
    this.spans.push(span);
  }

  addColumns(c: SpanColumns): void {
    for (let i = 0; i < c.count; i++) {
      this.spans.push({
        worker: c.worker[i] ?? 0,
        startNanos: c.start[i] ?? 0,
        endNanos: c.end[i] ?? 0,
        jobId: c.job[i] ?? 0,
        taskId: c.task[i] ?? 0,
        splitId: c.split[i] ?? 0,
        level: c.level[i] ?? 0,
        outcome: SPAN_OUTCOMES[c.outcome[i] ?? 0] ?? 'yielded',
        cls: c.names[c.cls[i] ?? 0] ?? '',
      });
    }
  }

  addSample(sample: CounterSample): void {
    this.samples.push(sample);
  }

  addEdge(fromSplit: number, toSplit: number): void {
    this.edges.push([fromSplit, toSplit]);
  }

  snapshot(): {
    spans: TraceSpan[];
    samples: CounterSample[];
    edges: (readonly [number, number])[];
    dropped: number;
  } {
    return {
      spans: this.spans.toArray(),
      samples: this.samples.toArray(),
      edges: this.edges.toArray(),
      dropped: this.spans.dropped,
    };
  }
}
