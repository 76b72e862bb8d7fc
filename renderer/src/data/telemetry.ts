/**
 * The data hub: frames and snapshots land here, outside React, in bounded rings. Canvases and
 * charts subscribe and redraw on the next animation frame (see `use-redraw.ts`); a 10 Hz stream
 * never re-renders the component tree.
 *
 * Engine time is integer ns; everything stored here is ms, the unit the UI speaks.
 */
import type { EngineConfig, PolicyName } from '../../../shared/config.ts';
import {
  historyPoint,
  samplesCost,
  type EngineEvent,
  type Frame,
  type FrameSamples,
  type HistoryPoint,
  type JobRow,
  type Snapshot,
  type SpanColumns,
} from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';
import { GanttSpans, type SpanInput } from './gantt-spans.ts';

const NS_PER_MS = 1e6;

/** One frame's series values, the unit the charts plot over time. */
export interface FramePoint {
  seq: number;
  tMs: number;
  depth: number[];
  /** Cumulative scheduled time per level (ms). */
  levelMs: number[];
  /** Cumulative selections per level. */
  selections: number[];
  utilization: number;
  succeeded: number;
  submitted: number;
  live: number;
  /**
   * The policy and level labels the point was taken under, so a chart draws each point as what
   * it meant then (a policy switch does not relabel the past); null from a host that does not
   * report them in its history.
   */
  policy: PolicyName | null;
  labels: string[] | null;
  /**
   * Cumulative time charged to each level (ms): what quanta contributed after the queue's cap,
   * the time the multilevel queue's shares are defined on (docs/design.md §3.1). Null when the
   * host does not report it.
   */
  chargedMs: number[] | null;
  /** PRIO: cumulative aging boosts per band (`LevelRow.agingBoosts`); null for other policies. */
  agingBoosts: number[] | null;
  /** The longest current wait of a queued split (ms); null when not reported. */
  oldestWaitMs: number | null;
  /** Latency and wait samples recorded since the previous point (`Frame.samples`); null when not reported. */
  samples: FrameSamples | null;
  /**
   * Frames the host skipped for this client just before this one (it read too slowly): their
   * samples never arrived, so a distribution over this point misses them (and says so).
   */
  skippedBefore?: number;
  /**
   * The config the point's frame ran under (the CSV's `config`), so an export after a policy
   * switch does not give the past today's config; absent for a snapshot's history points, which
   * carry none.
   */
  config?: EngineConfig;
}

/** A frame's own fields fill in what its history point may lack (an older `historyPoint`). */
function pointOf(p: HistoryPoint, frame?: Frame): FramePoint {
  const levels = frame?.levels;
  const charged =
    p.chargedNanos ??
    (levels !== undefined && levels.length > 0 && levels.every((l) => l.chargedNanos !== undefined)
      ? levels.map((l) => l.chargedNanos!)
      : undefined);
  const boosts =
    p.agingBoosts ??
    (levels !== undefined && levels.length > 0 && levels.every((l) => l.agingBoosts !== undefined)
      ? levels.map((l) => l.agingBoosts!)
      : undefined);
  return {
    seq: p.seq,
    tMs: p.timeNanos / NS_PER_MS,
    depth: p.depth,
    levelMs: p.scheduledNanos.map((n) => n / NS_PER_MS),
    selections: p.selections,
    utilization: p.utilization,
    succeeded: p.succeeded,
    submitted: p.submitted,
    live: p.live,
    policy: p.policy ?? frame?.policy ?? null,
    labels: p.labels ?? levels?.map((l) => l.label) ?? null,
    chargedMs: charged === undefined ? null : charged.map((n) => n / NS_PER_MS),
    agingBoosts: boosts ?? null,
    oldestWaitMs: frame?.oldestWaitMs ?? null,
    samples: p.samples ?? null,
  };
}

export interface Marker {
  tMs: number;
  kind: string;
  detail: string;
}

export interface TelemetryOptions {
  spanCapacity?: number;
  pointCapacity?: number;
  pointSamplesBudget?: number;
}

/**
 * Points kept: 10 min at 10 Hz, how far the charts scroll back (the range bar says how far that
 * is at the pace frames come). A point is its frame's series and sample buckets: usually a few
 * kB, but tens of thousands of numbers where many classes end many jobs a frame, so the points'
 * sample numbers are bounded too (`POINT_SAMPLES_BUDGET`): past it the oldest points go, and the
 * history reaches less far back (docs/metrics.md "history held").
 */
export const POINT_CAPACITY = 6000;
export const POINT_SAMPLES_BUDGET = 4_000_000;

/** Workers the lanes are tracked for (the protocol's `setWorkers` maximum). */
const MAX_LANES = 256;

/** Class names are interned across frames; the table is capped so memory stays bounded. */
const MAX_CLASSES = 512;

export class Telemetry {
  readonly spans: GanttSpans;
  readonly points: Ring<FramePoint>;
  readonly markers = new Ring<Marker>(256);
  readonly classNames: string[] = [];
  /**
   * Per worker: the end of its latest span (ms), so the Gantt keeps the lane of a worker that
   * left the pool while its spans are in view. Bounded by the pool's maximum size.
   */
  readonly laneEndMs: number[] = [];
  private readonly classIndex = new Map<string, number>();
  /** The points' config, shared while it does not change (each frame brings its own copy). */
  private config: { value: EngineConfig; json: string } | null = null;
  latest: Frame | null = null;
  /** Wall time (ms since the epoch) the latest frame arrived, to tell a current frame from a stale one. */
  receivedAtMs = 0;
  jobs: JobRow[] = [];
  /** Spans the host's ring overwrote before any frame carried them (cumulative). */
  droppedSpans = 0;
  skippedFrames = 0;
  skippedSpans = 0;
  framesSeen = 0;
  /** Gantt spans that never reached this client: dropped by the host or in skipped frames. */
  get lostSpans(): number {
    return this.droppedSpans + this.skippedSpans;
  }
  private readonly listeners = new Set<() => void>();

  constructor(opts: TelemetryOptions = {}) {
    this.spans = new GanttSpans(opts.spanCapacity ?? 1 << 18);
    this.points = new Ring<FramePoint>(opts.pointCapacity ?? POINT_CAPACITY, {
      cost: (p) => samplesCost(p.samples),
      budget: opts.pointSamplesBudget ?? POINT_SAMPLES_BUDGET,
    });
  }

  get nowMs(): number {
    return this.latest === null ? 0 : this.latest.timeNanos / NS_PER_MS;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A (re)connecting client starts over from the host's snapshot: spans, events, and the series
   * of the frames it missed (`history`), so charts show their window at once. A history point of
   * the snapshot's own seq gives way to the snapshot's frame (the same frame, state now), but its
   * samples stay: the snapshot's frame carries none, and without them the range tables and
   * Distributions would count fewer than the live tables.
   */
  ingestSnapshot(snapshot: Snapshot): void {
    this.spans.clear();
    this.laneEndMs.length = 0;
    this.points.clear();
    this.markers.clear();
    this.framesSeen = 0;
    // What an earlier connection skipped is no loss of what is shown from here (a host counts a
    // connection's skips from 0, and sends them with its frames once it has skipped one).
    this.skippedFrames = 0;
    this.skippedSpans = 0;
    this.addSpans(snapshot.spans);
    this.addEvents(snapshot.events);
    let ownSamples: FrameSamples | undefined;
    for (const p of snapshot.history ?? []) {
      if (p.seq < snapshot.frame.seq) this.points.push(pointOf(p));
      else if (p.seq === snapshot.frame.seq) ownSamples = p.samples;
    }
    this.addFrame(snapshot.frame, false, ownSamples);
    this.notify();
  }

  ingestFrame(frame: Frame, skipped?: { frames: number; spans: number }): void {
    const before = this.skippedFrames;
    if (skipped !== undefined) {
      this.skippedFrames = skipped.frames;
      this.skippedSpans = skipped.spans;
    }
    this.addFrame(frame, true);
    const newly = this.skippedFrames - before;
    if (newly > 0) this.points.last()!.skippedBefore = newly;
    this.notify();
  }

  classOf(name: string): number {
    let idx = this.classIndex.get(name);
    if (idx === undefined) {
      if (this.classNames.length >= MAX_CLASSES) return MAX_CLASSES - 1;
      idx = this.classNames.length;
      this.classNames.push(name);
      this.classIndex.set(name, idx);
    }
    return idx;
  }

  private addFrame(frame: Frame, withSpans: boolean, carried?: FrameSamples): void {
    this.latest = frame;
    this.receivedAtMs = Date.now();
    this.jobs = frame.jobs;
    this.framesSeen++;
    this.droppedSpans = frame.spansDropped;
    if (withSpans) {
      this.addSpans(frame.spans);
      this.addEvents(frame.events);
    }
    const point = pointOf(historyPoint(frame), frame);
    if (point.samples === null && carried !== undefined) point.samples = carried;
    point.config = this.sharedConfig(frame.config);
    this.points.push(point);
  }

  private sharedConfig(config: EngineConfig): EngineConfig {
    const json = JSON.stringify(config);
    if (this.config?.json !== json) this.config = { value: config, json };
    return this.config.value;
  }

  private addSpans(cols: SpanColumns): void {
    const local = cols.names.map((n) => this.classOf(n));
    this.spans.beginBatch();
    for (let i = 0; i < cols.count; i++) {
      const worker = cols.worker[i] ?? 0;
      const endMs = (cols.end[i] ?? 0) / NS_PER_MS;
      if (worker >= 0 && worker < MAX_LANES && !(endMs <= (this.laneEndMs[worker] ?? -Infinity))) {
        for (let w = this.laneEndMs.length; w < worker; w++) this.laneEndMs.push(-Infinity);
        this.laneEndMs[worker] = endMs;
      }
      const span: SpanInput = {
        worker: cols.worker[i] ?? 0,
        startMs: (cols.start[i] ?? 0) / NS_PER_MS,
        endMs: (cols.end[i] ?? 0) / NS_PER_MS,
        job: cols.job[i] ?? 0,
        task: cols.task[i] ?? 0,
        split: cols.split[i] ?? 0,
        level: cols.level[i] ?? 0,
        cls: local[cols.cls[i] ?? 0] ?? 0,
        outcome: cols.outcome[i] ?? 0,
      };
      // A graph run's span names its node (`SpanColumns.node`, an index into the frame's names).
      const node = cols.node?.[i] ?? -1;
      if (node >= 0 && cols.names[node] !== undefined) span.node = cols.names[node];
      this.spans.push(span);
    }
    this.spans.endBatch();
  }

  private addEvents(events: readonly EngineEvent[]): void {
    for (const e of events) {
      this.markers.push({ tMs: e.timeNanos / NS_PER_MS, kind: e.kind, detail: e.detail });
    }
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }
}
