/**
 * What the job table, the job detail and the warnings panel compute from the engine's answers
 * (`findJobs`, `jobDetail`, `Frame.warnings`; docs/jobs.md): sorting rows, laying a split's
 * segments out on one time axis, and the words for segments and priority changes.
 */
import type {
  JobRow,
  PriorityChange,
  SegmentKind,
  SplitDetail,
  SplitSegment,
} from '../../../shared/protocol.ts';
import type { PolicyName } from '../../../shared/config.ts';
import { formatMs } from '../../../shared/lib/format.ts';
import { bandLabel } from '../../../shared/lib/priority-bands.ts';

export const SORT_KEYS = ['id', 'class', 'state', 'splits', 'scheduled'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface JobSort {
  key: SortKey;
  descending: boolean;
}

/** The engine's order (live oldest first, then ended newest first) is `null`: no sort. */
export function sortJobs(rows: readonly JobRow[], sort: JobSort | null): JobRow[] {
  if (sort === null) return [...rows];
  const sign = sort.descending ? -1 : 1;
  const value = (r: JobRow): number | string => {
    switch (sort.key) {
      case 'id':
        return r.id;
      case 'class':
        return r.class;
      case 'state':
        return r.state;
      case 'splits':
        return r.splits;
      case 'scheduled':
        return r.scheduledNanos;
    }
  };
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const c = typeof x === 'number' ? x - (y as number) : x.localeCompare(y as string);
    return c === 0 ? a.id - b.id : sign * c;
  });
}

/** A click on a column header: ascending, then descending, then the engine's order again. */
export function nextSort(current: JobSort | null, key: SortKey): JobSort | null {
  if (current === null || current.key !== key) return { key, descending: false };
  return current.descending ? null : { key, descending: true };
}

/** A segment placed on the job's time axis, in % of its width. */
export interface Bar {
  kind: SegmentKind;
  left: number;
  width: number;
  /** MLFQ level or priority band of a `running` segment. */
  level: number | null;
  title: string;
}

/** The time axis of a job's timelines: its submission (or the oldest segment) → its end or now. */
export function jobAxis(
  job: JobRow,
  splits: readonly SplitDetail[],
  nowNanos: number,
): [number, number] {
  let t0 = job.submitNanos;
  for (const s of splits) for (const seg of s.segments) t0 = Math.min(t0, seg.startNanos);
  const t1 = Math.max(t0 + 1, job.endNanos ?? nowNanos);
  return [t0, t1];
}

/** Each segment of a split as a bar on `[t0, t1]`; at least 0.2 % wide so none vanishes. */
export function splitBars(
  split: SplitDetail,
  axis: [number, number],
  nowNanos: number,
  policy: PolicyName | null,
): Bar[] {
  const [t0, t1] = axis;
  const span = t1 - t0;
  return split.segments.map((seg) => {
    const end = seg.endNanos ?? Math.max(seg.startNanos, Math.min(nowNanos, t1));
    const left = ((seg.startNanos - t0) / span) * 100;
    const width = Math.max(0.2, ((end - seg.startNanos) / span) * 100);
    return {
      kind: seg.kind,
      left: Math.max(0, Math.min(100, left)),
      width: Math.min(width, 100 - Math.max(0, left)),
      level: seg.kind === 'running' ? (seg.level ?? 0) : null,
      title: segmentText(seg, nowNanos, policy),
    };
  });
}

/** `L2` under MLFQ, the band (`p40-59`) under priority, else nothing. */
export function levelName(level: number, policy: PolicyName | null): string {
  if (policy === 'priority') return bandLabel(level);
  if (policy === 'mlfq') return `L${level}`;
  return '';
}

/** A segment for people: `running 12.0 ms on worker 2 at L1 → yielded`. */
export function segmentText(
  seg: SplitSegment,
  nowNanos: number,
  policy: PolicyName | null,
): string {
  const end = seg.endNanos ?? nowNanos;
  const length = formatMs((end - seg.startNanos) / 1e6);
  const sofar = seg.endNanos === null ? ' so far' : '';
  if (seg.kind !== 'running') return `${seg.kind} ${length}${sofar}`;
  const at = seg.level === undefined ? '' : levelName(seg.level, policy);
  const where = `${seg.worker === undefined ? '' : ` on worker ${seg.worker}`}${at ? ` at ${at}` : ''}`;
  const how = seg.outcome === undefined ? '' : ` → ${seg.outcome}`;
  const code = seg.errorCode === undefined ? '' : ` (${seg.errorCode})`;
  return `running ${length}${sofar}${where}${how}${code}`;
}

/** A priority change for people: `split 5 demoted L0 → L1`, `split 5 aged 90 → 75`. */
export function changeText(c: PriorityChange): string {
  switch (c.kind) {
    case 'level':
      return `split ${c.splitId} ${c.to > c.from ? 'demoted' : 'promoted'} L${c.from} → L${c.to}`;
    case 'aging':
      return `split ${c.splitId} aged ${c.from} → ${c.to}`;
    case 'reprioritize':
      return `priority set ${c.from} → ${c.to}`;
  }
}
