/**
 * What the Gantt's tooltip says about the span under the pointer, one `[name, value]` row each.
 * Its level is named as the rest of the app and the trace name it (`p40-59` under priority).
 */
import { SPAN_OUTCOMES } from '../../../shared/protocol.ts';
import { formatMs } from './gantt-viewport.ts';
import type { Telemetry } from './telemetry.ts';

/** The tooltip rows of span slot `i` of the telemetry's span ring, on worker lane `worker`. */
export function spanTipRows(t: Telemetry, i: number, worker: string): [string, string][] {
  const sp = t.spans;
  const cls = t.classNames[sp.cls[i]!] ?? '?';
  const node = sp.nodeId[i];
  return [
    ...(node === null || node === undefined ? [] : [['node', node] as [string, string]]),
    ['job', `${sp.job[i]} (${cls})`],
    ['task', String(sp.task[i])],
    ['split', String(sp.split[i])],
    ['level', levelLabel(t, sp.start[i]!, sp.level[i]!)],
    ['duration', formatMs(sp.end[i]! - sp.start[i]!)],
    ['outcome', SPAN_OUTCOMES[sp.outcome[i]!] ?? '?'],
    ['worker', worker],
  ];
}

/**
 * A level as the frames named it when the span started, as the trace names a slice: the labels
 * of the last point at or before its start, or of the first point (a policy switch renames the
 * rows, so the latest frame's labels could name another policy's level).
 */
function levelLabel(t: Telemetry, startMs: number, level: number): string {
  const points = t.points;
  let lo = 0;
  let hi = points.size - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points.at(mid)!.tMs <= startMs) lo = mid;
    else hi = mid - 1;
  }
  const labels = points.at(lo)?.labels ?? t.latest?.levels.map((l) => l.label);
  return labels?.[level] ?? `L${level}`;
}
