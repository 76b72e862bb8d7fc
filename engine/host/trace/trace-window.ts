/**
 * A bounded window of what a trace shows (docs/design.md §6): the most recent spans in a ring, so a
 * long run keeps the last `capacity` quanta and counts what it dropped, and counter samples over
 * the same stretch of time — a counter track that runs on for minutes before the first slice, or
 * starts after it, would misread as the queue the slices ran under. Spans are fed from the
 * executor's span ring (columnar reads, shared/protocol.ts `SpanColumns`).
 */
import { SPAN_OUTCOMES, type SpanColumns } from '../../../shared/protocol.ts';
import type { TraceSlice } from '../../../shared/lib/chrome-trace.ts';
import { Ring } from '../../../shared/lib/ring.ts';

/** A quantum as the trace builder takes it, its outcome one of the protocol's. */
export interface TraceSpan extends Omit<TraceSlice, 'outcome' | 'flowKey'> {
  outcome: (typeof SPAN_OUTCOMES)[number];
}

/**
 * A sample of per-level queue depth, level clock (`scheduledNanos`) and charged time
 * (`chargedNanos`, see shared/protocol.ts `LevelRow`) at one moment.
 */
export interface CounterSample {
  timeNanos: number;
  depth: readonly number[];
  scheduledNanos: readonly number[];
  chargedNanos?: readonly number[];
  labels?: readonly string[];
}

/**
 * Counter samples, oldest first, at most `capacity`. When full it first lets go of samples from
 * before the span window (they are cut at export anyway). If the window itself holds more than
 * fit, it keeps every 2nd sample of the run (then every 4th, …: a stride over the sample
 * sequence, so the thinning is even): coarser, but still reaching back as far as the spans do.
 * Each clear-out frees at least a quarter, so a push is O(1) amortized.
 */
class SampleBuffer {
  private items: { seq: number; sample: CounterSample }[] = [];
  private seq = 0;
  private stride = 1;
  dropped = 0;
  constructor(readonly capacity: number) {}

  /** The newest sample, exported even when the stride skipped it: it is where the run ended. */
  private latest: CounterSample | null = null;
  private latestKept = false;

  push(sample: CounterSample, windowStartNanos: number): void {
    const seq = this.seq++;
    if (this.items.length >= this.capacity) this.makeRoom(windowStartNanos);
    this.latest = sample;
    this.latestKept = seq % this.stride === 0;
    if (this.latestKept) this.items.push({ seq, sample });
    else this.dropped++;
  }

  private makeRoom(windowStartNanos: number): void {
    const inside = this.items.findIndex((x) => x.sample.timeNanos >= windowStartNanos);
    let kept = inside < 0 ? [] : this.items.slice(inside);
    while (kept.length > (this.capacity * 3) / 4) {
      this.stride *= 2;
      kept = kept.filter((x) => x.seq % this.stride === 0);
    }
    // The window slid past the coarse part: sample finer again from here on.
    if (kept.length <= this.capacity / 4 && this.stride > 1) this.stride /= 2;
    this.dropped += this.items.length - kept.length;
    this.items = kept;
  }

  /** The samples from `startNanos` on, and how many were dropped in all. */
  from(startNanos: number): { samples: CounterSample[]; dropped: number } {
    const samples = this.items.filter((x) => x.sample.timeNanos >= startNanos).map((x) => x.sample);
    const dropped = this.dropped + this.items.length - samples.length;
    if (this.latest === null || this.latestKept || this.latest.timeNanos < startNanos)
      return { samples, dropped };
    return { samples: [...samples, this.latest], dropped: dropped - 1 };
  }
}

export class TraceWindow {
  private readonly spans: Ring<TraceSpan>;
  private readonly samples: SampleBuffer;
  /** Graph edges between splits (flow events); bounded like the spans. */
  private readonly edges: Ring<readonly [from: number, to: number]>;

  constructor(capacity = 100_000) {
    this.spans = new Ring(capacity);
    this.samples = new SampleBuffer(Math.max(64, capacity >> 4));
    this.edges = new Ring(capacity);
  }

  /** Spans let go before they reached the window (a graph executor's ring), counted here. */
  private droppedBefore = 0;

  get droppedSpans(): number {
    return this.spans.dropped + this.droppedBefore;
  }

  addDropped(count: number): void {
    this.droppedBefore += count;
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
    this.samples.push(sample, this.spanWindowStart());
  }

  /**
   * Where the spans held begin, once the ring has dropped any (before that, the window reaches
   * back to the run's start, and samples from before the first slice belong to it).
   */
  private spanWindowStart(): number {
    return this.spans.dropped === 0 ? -Infinity : (this.spans.oldest()?.startNanos ?? -Infinity);
  }

  addEdge(fromSplit: number, toSplit: number): void {
    this.edges.push([fromSplit, toSplit]);
  }

  snapshot(): {
    spans: TraceSpan[];
    samples: CounterSample[];
    edges: (readonly [number, number])[];
    dropped: number;
    droppedSamples: number;
  } {
    const spans = this.spans.toArray();
    // Spans arrive in end order, so the oldest held is not always the earliest to start.
    const start =
      this.spans.dropped === 0
        ? -Infinity
        : spans.reduce((m, sp) => Math.min(m, sp.startNanos), Infinity);
    const { samples, dropped } = this.samples.from(start);
    return {
      spans,
      samples,
      edges: this.edges.toArray(),
      dropped: this.droppedSpans,
      droppedSamples: dropped,
    };
  }
}
