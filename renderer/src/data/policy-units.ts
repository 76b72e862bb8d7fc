/**
 * What each policy's panels count in (docs/design.md §3): the multilevel queue has levels, PRIO
 * has priority bands, fair shares service between groups, FIFO has one queue whose age matters.
 * Panel titles name the policy's own unit, so no chart calls a band a level.
 */
import type { FairnessMode, PolicyName } from '../../../shared/config.ts';
import type { FairGroups, JobRow, Percentiles } from '../../../shared/protocol.ts';
import { BAND_LABELS } from '../../../shared/lib/priority-bands.ts';

export interface PolicyUnits {
  /** `level`, `priority band`, `job`, `queue`. */
  unit: string;
  shareTitle: string;
  depthTitle: string;
  selectionsTitle: string;
}

/** The group a fair queue shares service between at each `fairness` (query: a job or tenant). */
const FAIR_GROUP: Record<FairnessMode, string> = { query: 'job', task: 'task', split: 'split' };

/**
 * `fairUnit`: what the host says the fair groups are now (`FairGroups.unit`: `tenant` when every
 * job shares its tenant's group), over what `fairness` alone implies.
 */
export function policyUnits(
  policy: PolicyName | null,
  fairness: FairnessMode,
  fairUnit?: FairGroups['unit'],
): PolicyUnits {
  switch (policy) {
    case 'priority':
      return {
        unit: 'priority band',
        shareTitle: 'Charged time per priority band',
        depthTitle: 'Queue depth per priority band',
        selectionsTitle: 'Selections per priority band',
      };
    case 'fair':
      return {
        unit: fairUnit ?? FAIR_GROUP[fairness],
        shareTitle: `Service share per ${fairUnit ?? FAIR_GROUP[fairness]}`,
        depthTitle: 'Queue depth · one fair queue',
        selectionsTitle: 'Selections · one fair queue',
      };
    case 'fifo':
      return {
        unit: 'queue',
        shareTitle: 'Queue age',
        depthTitle: 'Queue depth · one FIFO queue',
        selectionsTitle: 'Selections · one FIFO queue',
      };
    default:
      return {
        unit: 'level',
        shareTitle: 'Charged time per level',
        depthTitle: 'Queue depth per level',
        selectionsTitle: 'Selections per level',
      };
  }
}

export interface GroupShare {
  label: string;
  share: number;
}

/** Groups shown by name; the rest are summed into one `others` row. */
const SHOWN_GROUPS = 8;

/**
 * Each live job's share of the service live jobs have had so far (their scheduled time), the
 * quantity Jain's index is computed over (`frame.fairness`): the per-job view, for a host whose
 * frames carry no `fairGroups`.
 */
export function groupShares(jobs: readonly JobRow[]): GroupShare[] {
  const live = jobs.filter((j) => j.state === 'running' && j.scheduledNanos > 0);
  const total = live.reduce((a, j) => a + j.scheduledNanos, 0);
  if (total === 0) return [];
  const rows = live
    .map((j) => ({ label: `#${j.id} ${j.class}`, share: j.scheduledNanos / total }))
    .sort((a, b) => b.share - a.share);
  if (rows.length <= SHOWN_GROUPS) return rows;
  const rest = rows.slice(SHOWN_GROUPS - 1);
  return [
    ...rows.slice(0, SHOWN_GROUPS - 1),
    { label: `${rest.length} others`, share: rest.reduce((a, r) => a + r.share, 0) },
  ];
}

/**
 * The fair groups' shares of their service (`FairGroups`, at the grouping the policy uses): the
 * heaviest named, the rest as one `N others` row.
 */
export function fairGroupShares(g: FairGroups): GroupShare[] {
  if (g.totalNanos <= 0) return [];
  const rows = g.groups.map((r) => ({
    label: r.weight === undefined ? r.label : `${r.label} ×${r.weight}`,
    share: r.serviceNanos / g.totalNanos,
  }));
  if (g.others.groups > 0) {
    rows.push({ label: `${g.others.groups} others`, share: g.others.serviceNanos / g.totalNanos });
  }
  return rows;
}

/** Live jobs' service per class, as shares (`FairGroups.byClass`). */
export function classShares(g: FairGroups): GroupShare[] {
  const total = g.byClass.reduce((a, c) => a + c.serviceNanos, 0);
  if (total <= 0) return [];
  return g.byClass.map((c) => ({ label: c.cls, share: c.serviceNanos / total }));
}

/** Per-band wait p95 (ms) in band order, null for a band with no sample. */
export function bandWaits(
  byBand: Record<string, Percentiles>,
): { band: string; p95: number | null; count: number }[] {
  return BAND_LABELS.map((band) => {
    const p = byBand[band];
    return { band, p95: p === undefined || p.count === 0 ? null : p.p95, count: p?.count ?? 0 };
  });
}

/** The queue-age series of FIFO: the oldest current wait at each frame (s and ms). */
export function queueAgeSeries(
  points: readonly { tMs: number; oldestWaitMs: number | null }[],
): { t: number; age: number }[] {
  const rows: { t: number; age: number }[] = [];
  for (const p of points)
    if (p.oldestWaitMs !== null) rows.push({ t: p.tMs / 1000, age: p.oldestWaitMs });
  return rows;
}

/** PRIO's aging knobs in one line (what boosts a waiting task, how far). */
export function agingText(
  c: {
    aging: boolean;
    agingAfterMs: number;
    agingStepMs: number;
    agingCap: number;
  },
  format: (ms: number) => string,
): string {
  if (!c.aging) return 'aging off: a band waits as long as more urgent ones have work';
  return `aging on: after ${format(c.agingAfterMs)} waiting, one priority more urgent per ${format(c.agingStepMs)}, at most ${c.agingCap}`;
}
