/**
 * Chrome trace-event JSON (the format Perfetto and chrome://tracing open), docs/design.md §6:
 * - one `M` thread_name per worker (tid = worker + 1, because tid 0 reads as "no thread");
 * - an `X` slice per quantum, args job / task / split / level / outcome;
 * - `C` counters for per-level queue depth and scheduled time;
 * - `s` / `f` flow events for graph edges, from the end of the predecessor's last slice to the
 *   start of the successor's first one — last and first in time, whichever workers they ran on (a
 *   node that blocks may resume elsewhere); flow ids are 1, 2, 3… (small and nonzero).
 * Times are µs (the format's unit) relative to the window's first event. Slices on one thread
 * never overlap: a slice that would start before its predecessor ended is clipped to its end.
 */
import type { CounterSample, TraceSpan } from './trace-window.ts';

export interface TraceEvent {
  name: string;
  ph: 'X' | 'M' | 'C' | 's' | 'f';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  id?: number;
  bp?: 'e';
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, unknown>;
}

export interface TraceInput {
  spans: readonly TraceSpan[];
  samples?: readonly CounterSample[];
  edges?: readonly (readonly [number, number])[];
  workers: number;
  /** Spans the bounded window dropped before export (reported, never hidden). */
  dropped?: number;
  /** Counter samples dropped: from before the window's first slice, or thinned to fit. */
  droppedSamples?: number;
  title?: string;
}

const PID = 1;
const us = (nanos: number, origin: number) => Math.round((nanos - origin) / 10) / 100;

export function toChromeTrace(input: TraceInput): ChromeTrace {
  const spans = [...input.spans].sort((a, b) => a.worker - b.worker || a.startNanos - b.startNanos);
  const origin = Math.min(
    spans.reduce((m, s) => Math.min(m, s.startNanos), Infinity),
    (input.samples ?? []).reduce((m, s) => Math.min(m, s.timeNanos), Infinity),
  );
  const t0 = Number.isFinite(origin) ? origin : 0;
  const events: TraceEvent[] = [
    { name: 'process_name', ph: 'M', pid: PID, args: { name: input.title ?? 'schedlab' } },
  ];
  const workers = Math.max(
    input.workers,
    spans.reduce((m, s) => Math.max(m, s.worker + 1), 0),
  );
  for (let w = 0; w < workers; w++) {
    events.push({
      name: 'thread_name',
      ph: 'M',
      pid: PID,
      tid: w + 1,
      args: { name: `worker ${w}` },
    });
  }
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
      name: `${s.cls || 'job'} #${s.jobId}`,
      cat: `L${s.level}`,
      ph: 'X',
      pid: PID,
      tid: s.worker + 1,
      ts,
      dur: Math.round((end - ts) * 100) / 100,
      args: { job: s.jobId, task: s.taskId, split: s.splitId, level: s.level, outcome: s.outcome },
    };
    events.push(ev);
    // Spans are in worker order here, so the first and last of a split are found by time.
    const f = first.get(s.splitId);
    if (f === undefined || ts < f.ts!) first.set(s.splitId, ev);
    const l = last.get(s.splitId);
    if (l === undefined || end >= l.ts! + l.dur!) last.set(s.splitId, ev);
  }
  for (const sample of input.samples ?? []) {
    const ts = us(sample.timeNanos, t0);
    const depth: Record<string, number> = {};
    const time: Record<string, number> = {};
    sample.depth.forEach((d, l) => (depth[`L${l}`] = d));
    sample.scheduledNanos.forEach((n, l) => (time[`L${l}`] = Math.round(n / 1e6)));
    events.push({ name: 'queue depth', ph: 'C', pid: PID, ts, args: depth });
    events.push({ name: 'scheduled ms', ph: 'C', pid: PID, ts, args: time });
  }
  let flowId = 0;
  for (const [from, to] of input.edges ?? []) {
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
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      spans: spans.length,
      droppedSpans: input.dropped ?? 0,
      droppedSamples: input.droppedSamples ?? 0,
      originNanos: t0,
    },
  };
}
