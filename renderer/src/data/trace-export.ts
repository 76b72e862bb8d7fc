/**
 * The app's Perfetto trace of a time window, built from the rings by the same builder as the
 * CLI's traces (shared/lib/chrome-trace.ts, which lists every event): a slice per quantum, thread
 * names per worker, counters for queue depth, the level clock, charged time and utilization, an
 * instant per engine event, and flow events for graph edges when the caller knows the edges.
 * Times are µs of engine time (origin 0), so a trace lines up with the app's time axis.
 */
import { SPAN_OUTCOMES } from '../../../shared/protocol.ts';
import {
  buildChromeTrace,
  type ChromeTrace,
  type TraceMarker,
  type TraceSample,
  type TraceSlice,
} from '../../../shared/lib/chrome-trace.ts';
import type { FramePoint, Telemetry } from './telemetry.ts';

export type { TraceEvent } from '../../../shared/lib/chrome-trace.ts';

const NS_PER_MS = 1e6;

/** `otherData` under the name the export view reads. */
export type TraceDocument = ChromeTrace & { metadata: Record<string, unknown> };

/** What a series point may carry beyond `FramePoint` (kept where telemetry keeps them). */
export interface TraceExtras {
  /** Graph edges as `[from, to]` flow keys; by default the latest graph run's (`graph.edges`). */
  edges?: readonly (readonly [number, number])[];
}

/** A graph node's flow key: apart from every split id (those are ≥ 0). */
const nodeKey = (graph: number, node: number) => -(graph * 2 ** 21 + node + 1);

export function buildTrace(
  t: Telemetry,
  fromMs: number,
  toMs: number,
  extras: TraceExtras = {},
): TraceDocument {
  const ring = t.spans;
  const run = t.latest?.graph ?? null;
  const edges =
    extras.edges ?? run?.edges?.map(([g, from, to]) => [nodeKey(g, from), nodeKey(g, to)] as const);
  const spans: TraceSlice[] = [];
  for (let k = ring.firstEndingAfter(fromMs); k < ring.size; k++) {
    const i = ring.slot(k);
    const s = ring.start[i]!;
    const e = ring.end[i]!;
    if (e < fromMs || s > toMs) continue;
    spans.push({
      worker: ring.worker[i]!,
      startNanos: s * NS_PER_MS,
      endNanos: e * NS_PER_MS,
      jobId: ring.job[i]!,
      taskId: ring.task[i]!,
      splitId: ring.split[i]!,
      level: ring.level[i]!,
      outcome: SPAN_OUTCOMES[ring.outcome[i]!] ?? 'unknown',
      cls: t.classNames[ring.cls[i]!] ?? 'unknown',
      // A graph node's slice is named by its node id, as the CLI's trace names it.
      ...(ring.nodeId[i] === null ? {} : { node: ring.nodeId[i]! }),
      // A graph run's spans: `task` is the graph, `split` the node (shared/protocol.ts).
      ...(run !== null && ring.job[i] === run.jobId
        ? { flowKey: nodeKey(ring.task[i]!, ring.split[i]!) }
        : {}),
    });
  }
  const samples: TraceSample[] = [];
  for (let k = 0; k < t.points.size; k++) {
    const p = t.points.at(k)!;
    if (p.tMs >= fromMs && p.tMs <= toMs) samples.push(sampleOf(p));
  }
  const markers: TraceMarker[] = t.markers
    .toArray()
    .filter((m) => m.tMs >= fromMs && m.tMs <= toMs)
    .map((m) => ({ timeNanos: m.tMs * NS_PER_MS, kind: m.kind, detail: m.detail }));
  const latest = t.latest;
  const doc = buildChromeTrace({
    spans,
    samples,
    markers,
    ...(edges === undefined ? {} : { edges }),
    workers: 0, // only workers with slices in the window get a thread
    originNanos: 0,
    title: 'SchedLab engine',
    metadata: {
      source: 'SchedLab renderer',
      windowMs: [fromMs, toMs],
      ...(latest === null ? {} : { policy: latest.policy, config: latest.config }),
    },
  });
  return { ...doc, metadata: doc.otherData };
}

function sampleOf(p: FramePoint): TraceSample {
  return {
    timeNanos: p.tMs * NS_PER_MS,
    depth: p.depth,
    scheduledNanos: p.levelMs.map((ms) => ms * NS_PER_MS),
    ...(p.chargedMs === null ? {} : { chargedNanos: p.chargedMs.map((ms) => ms * NS_PER_MS) }),
    utilization: p.utilization,
    ...(p.labels === null ? {} : { labels: p.labels }),
  };
}
