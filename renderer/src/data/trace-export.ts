/**
 * Chrome trace-event JSON (opens in Perfetto) built from the rings for a time window
 * (docs/design.md §6): `M` names per worker thread, one `X` per quantum with its job, task, split,
 * level and outcome, `C` counters for per-level queue depth and scheduled time, and an instant
 * event per knob change. Times are µs of engine time.
 */
import { SPAN_OUTCOMES } from '../../../shared/protocol.ts';
import type { Telemetry } from './telemetry.ts';

export interface TraceEvent {
  name: string;
  ph: 'M' | 'X' | 'C' | 'i';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: 'g';
  args?: Record<string, unknown>;
}

export interface TraceDocument {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  metadata: Record<string, unknown>;
}

const PID = 1;
const US_PER_MS = 1000;

export function buildTrace(t: Telemetry, fromMs: number, toMs: number): TraceDocument {
  const events: TraceEvent[] = [
    { name: 'process_name', ph: 'M', pid: PID, args: { name: 'SchedLab engine' } },
  ];
  const ring = t.spans;
  const workers = new Set<number>();
  const slices: TraceEvent[] = [];
  for (let k = ring.firstEndingAfter(fromMs); k < ring.size; k++) {
    const i = ring.slot(k);
    const s = ring.start[i]!;
    const e = ring.end[i]!;
    if (e < fromMs || s > toMs) continue;
    const w = ring.worker[i]!;
    workers.add(w);
    const cls = t.classNames[ring.cls[i]!] ?? 'unknown';
    slices.push({
      name: `job ${ring.job[i]} · ${cls}`,
      cat: cls,
      ph: 'X',
      pid: PID,
      tid: w + 1,
      ts: s * US_PER_MS,
      dur: Math.max(0, e - s) * US_PER_MS,
      args: {
        job: ring.job[i],
        task: ring.task[i],
        split: ring.split[i],
        level: ring.level[i],
        outcome: SPAN_OUTCOMES[ring.outcome[i]!] ?? 'unknown',
        class: cls,
      },
    });
  }
  for (const w of [...workers].sort((a, b) => a - b)) {
    events.push({
      name: 'thread_name',
      ph: 'M',
      pid: PID,
      tid: w + 1,
      args: { name: `worker ${w}` },
    });
    events.push({
      name: 'thread_sort_index',
      ph: 'M',
      pid: PID,
      tid: w + 1,
      args: { sort_index: w },
    });
  }
  slices.sort((a, b) => a.tid! - b.tid! || a.ts! - b.ts!);
  events.push(...slices);
  for (let k = 0; k < t.points.size; k++) {
    const p = t.points.at(k)!;
    if (p.tMs < fromMs || p.tMs > toMs) continue;
    const ts = p.tMs * US_PER_MS;
    events.push({ name: 'queue depth', ph: 'C', pid: PID, ts, args: levelArgs(p.depth) });
    events.push({ name: 'level scheduled ms', ph: 'C', pid: PID, ts, args: levelArgs(p.levelMs) });
    events.push({
      name: 'utilization %',
      ph: 'C',
      pid: PID,
      ts,
      args: { utilization: Math.round(p.utilization * 1000) / 10 },
    });
  }
  for (const m of t.markers.toArray()) {
    if (m.tMs < fromMs || m.tMs > toMs) continue;
    events.push({
      name: `${m.kind}: ${m.detail}`,
      ph: 'i',
      s: 'g',
      pid: PID,
      ts: m.tMs * US_PER_MS,
      cat: 'knob',
    });
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    metadata: { source: 'SchedLab renderer', windowMs: [fromMs, toMs], spans: slices.length },
  };
}

function levelArgs(values: readonly number[]): Record<string, number> {
  const args: Record<string, number> = {};
  values.forEach((v, l) => (args[`L${l}`] = v));
  return args;
}
