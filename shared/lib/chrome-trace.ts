/**
 * The one Chrome trace-event builder (the JSON Perfetto and chrome://tracing open; docs/design.md §6),
 * pure, for both the CLI's traces (engine/host/trace) and the app's export (renderer):
 * - `M` events: the process name, and per worker a `thread_name` and `thread_sort_index`
 *   (tid = worker + 1, because tid 0 reads as "no thread");
 * - an `X` slice per quantum, named `class #job` (a graph node's slice by its node id), `cat` its
 *   level, args job / task / split / level / outcome / class (and node); slices on one thread never overlap (one that would start before its
 *   predecessor ended is clipped to that end);
 * - `C` counters per sample: `queue depth`, `level clock ms` (the queue's internal level clock,
 *   `LevelRow.scheduledNanos`), `charged ms` (time charged to each level, `LevelRow.chargedNanos`,
 *   which level shares are taken from) and `utilization %` when the sample has them;
 * - `s` / `f` flow events for graph edges, from the end of the predecessor's last slice to the
 *   start of the successor's first one (whichever workers they ran on); flow ids 1, 2, 3…;
 * - an `i` instant per engine event (knob, policy, workload changes), named by its detail
 *   (`policy: "mlfq" → "fifo"`), its kind prefixed only when the detail does not start with it.
 * Every event carries a `cat` (strict parsers such as @tracerbench/trace-model require one).
 * Times are µs (the format's unit) from `originNanos` (default: the earliest event).
 */

export interface TraceEvent {
  name: string;
  ph: 'X' | 'M' | 'C' | 's' | 'f' | 'i';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat: string;
  id?: number;
  bp?: 'e';
  s?: 'g';
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, unknown>;
}

/** One quantum on one worker (backend ns). */
export interface TraceSlice {
  worker: number;
  startNanos: number;
  endNanos: number;
  jobId: number;
  taskId: number;
  splitId: number;
  level: number;
  outcome: string;
  cls: string;
  /** What `edges` name this slice's node by (default `splitId`). */
  flowKey?: number;
  /** A graph node's id: the slice's name (else `class #job`) and its `node` arg. */
  node?: string;
}

/** Per-level values at one moment; `labels` names the rows (`L0` … by default). */
export interface TraceSample {
  timeNanos: number;
  depth: readonly number[];
  /** The queue's level clock (ns). */
  scheduledNanos: readonly number[];
  /** Time charged to each level, cumulative (ns). */
  chargedNanos?: readonly number[];
  /** 0..1 */
  utilization?: number;
  labels?: readonly string[];
}

export interface TraceMarker {
  timeNanos: number;
  kind: string;
  detail: string;
}

export interface TraceInput {
  spans: readonly TraceSlice[];
  samples?: readonly TraceSample[];
  /** Graph edges as `[from, to]` flow keys (`TraceSlice.flowKey`, else split ids). */
  edges?: readonly (readonly [number, number])[];
  /** Engine events; those before the origin (outside a bounded window) are left out. */
  markers?: readonly TraceMarker[];
  /** Events the engine's bounded ring let go before `markers` was read (reported, never hidden). */
  droppedMarkers?: number;
  /** Every slice's category when the run has no queue levels (a graph run's row: `graph`). */
  rowLabel?: string;
  /** Threads named `worker 0` … `worker n−1` even when idle (those with slices are named too). */
  workers: number;
  /** Spans the bounded window dropped before export (reported, never hidden). */
  dropped?: number;
  /** Counter samples dropped: from before the window's first slice, or thinned to fit. */
  droppedSamples?: number;
  title?: string;
  /** Where ts 0 is (backend ns); default the earliest slice or sample. */
  originNanos?: number;
  /** Added to `otherData` (the policy and config a trace was taken under, the window…). */
  metadata?: Record<string, unknown>;
}

const PID = 1;
const META = '__metadata';
const us = (nanos: number, origin: number) => Math.round((nanos - origin) / 10) / 100;

export function buildChromeTrace(input: TraceInput): ChromeTrace {
  const spans = [...input.spans].sort((a, b) => a.worker - b.worker || a.startNanos - b.startNanos);
  const samples = input.samples ?? [];
  const t0 = input.originNanos ?? originOf(spans, samples);
  const events: TraceEvent[] = [
    {
      name: 'process_name',
      ph: 'M',
      cat: META,
      pid: PID,
      args: { name: input.title ?? 'schedlab' },
    },
  ];
  const workers = new Set<number>();
  for (let w = 0; w < input.workers; w++) workers.add(w);
  for (const s of spans) workers.add(s.worker);
  for (const w of [...workers].sort((a, b) => a - b)) {
    const tid = w + 1;
    events.push({
      name: 'thread_name',
      ph: 'M',
      cat: META,
      pid: PID,
      tid,
      args: { name: `worker ${w}` },
    });
    events.push({
      name: 'thread_sort_index',
      ph: 'M',
      cat: META,
      pid: PID,
      tid,
      args: { sort_index: w },
    });
  }
  const { first, last } = addSlices(events, spans, t0, levelLabels(samples, input.rowLabel));
  for (const sample of samples) addCounters(events, sample, t0);
  addFlows(events, input.edges ?? [], first, last);
  for (const m of input.markers ?? []) {
    if (m.timeNanos < t0) continue; // before the window (a bounded trace starts late)
    const prefixed = m.detail.startsWith(`${m.kind}:`) || m.detail.startsWith(`${m.kind} `);
    events.push({
      name: prefixed ? m.detail : `${m.kind}: ${m.detail}`,
      cat: m.kind,
      ph: 'i',
      s: 'g',
      pid: PID,
      ts: us(m.timeNanos, t0),
    });
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      ...input.metadata,
      spans: spans.length,
      droppedSpans: input.dropped ?? 0,
      droppedSamples: input.droppedSamples ?? 0,
      droppedMarkers: input.droppedMarkers ?? 0,
      originNanos: t0,
    },
  };
}

function originOf(spans: readonly TraceSlice[], samples: readonly TraceSample[]): number {
  const origin = Math.min(
    spans.reduce((m, s) => Math.min(m, s.startNanos), Infinity),
    samples.reduce((m, s) => Math.min(m, s.timeNanos), Infinity),
  );
  return Number.isFinite(origin) ? origin : 0;
}

/** Slices in worker then time order; returns each split's first and last slice (for flows). */
/**
 * A slice's level as the counters name it at its start (a PRIO band `p20-39`, fifo's queue): the
 * labels of the last sample at or before it, or of the first sample. `L0`… where none names it.
 */
function levelLabels(
  samples: readonly TraceSample[],
  row: string | undefined,
): (t: number, level: number) => string {
  const named = samples.filter((s) => s.labels !== undefined);
  return (t, level) => {
    let lo = 0;
    let hi = named.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (named[mid]!.timeNanos <= t) lo = mid;
      else hi = mid - 1;
    }
    return named[lo]?.labels?.[level] ?? row ?? `L${level}`;
  };
}

function addSlices(
  events: TraceEvent[],
  spans: readonly TraceSlice[],
  t0: number,
  label: (t: number, level: number) => string,
) {
  const first = new Map<number, TraceEvent>();
  const last = new Map<number, TraceEvent>();
  let lastWorker = -1;
  let lastEnd = 0;
  for (const s of spans) {
    if (s.worker !== lastWorker) {
      lastWorker = s.worker;
      lastEnd = -Infinity;
    }
    const ts = Math.max(us(s.startNanos, t0), lastEnd);
    const end = Math.max(ts, us(s.endNanos, t0));
    lastEnd = end;
    const ev: TraceEvent = {
      name: s.node ?? `${s.cls || 'job'} #${s.jobId}`,
      cat: label(s.startNanos, s.level),
      ph: 'X',
      pid: PID,
      tid: s.worker + 1,
      ts,
      dur: Math.round((end - ts) * 100) / 100,
      args: {
        job: s.jobId,
        task: s.taskId,
        split: s.splitId,
        level: s.level,
        outcome: s.outcome,
        class: s.cls,
        ...(s.node === undefined ? {} : { node: s.node }),
      },
    };
    events.push(ev);
    const key = s.flowKey ?? s.splitId;
    const f = first.get(key);
    if (f === undefined || ts < f.ts!) first.set(key, ev);
    const l = last.get(key);
    if (l === undefined || end >= l.ts! + l.dur!) last.set(key, ev);
  }
  return { first, last };
}

function addCounters(events: TraceEvent[], sample: TraceSample, t0: number): void {
  const ts = us(sample.timeNanos, t0);
  const label = (l: number) => sample.labels?.[l] ?? `L${l}`;
  const byLevel = (values: readonly number[], scale: number) => {
    const args: Record<string, number> = {};
    values.forEach((v, l) => (args[label(l)] = Math.round((v / scale) * 1000) / 1000));
    return args;
  };
  const counter = (name: string, args: Record<string, number>) =>
    events.push({ name, cat: 'counters', ph: 'C', pid: PID, ts, args });
  counter('queue depth', byLevel(sample.depth, 1));
  counter('level clock ms', byLevel(sample.scheduledNanos, 1e6));
  if (sample.chargedNanos !== undefined) counter('charged ms', byLevel(sample.chargedNanos, 1e6));
  if (sample.utilization !== undefined) {
    counter('utilization %', { utilization: Math.round(sample.utilization * 1000) / 10 });
  }
}

function addFlows(
  events: TraceEvent[],
  edges: readonly (readonly [number, number])[],
  first: Map<number, TraceEvent>,
  last: Map<number, TraceEvent>,
): void {
  let flowId = 0;
  for (const [from, to] of edges) {
    const a = last.get(from);
    const b = first.get(to);
    if (a === undefined || b === undefined || a.ts === undefined || b.ts === undefined) continue;
    const id = ++flowId;
    // The start binds to the predecessor's slice (a timestamp inside it); `bp: 'e'` binds the
    // end to the enclosing slice of the successor.
    const startTs = a.ts + (a.dur ?? 0) / 2;
    events.push({ name: 'edge', cat: 'dag', ph: 's', id, pid: PID, tid: a.tid ?? 1, ts: startTs });
    events.push({
      name: 'edge',
      cat: 'dag',
      ph: 'f',
      bp: 'e',
      id,
      pid: PID,
      tid: b.tid ?? 1,
      ts: b.ts,
    });
  }
}
