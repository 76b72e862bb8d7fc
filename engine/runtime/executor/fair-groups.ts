/**
 * The `fair` policy's service per fairness group (docs/metrics.md "fair groups"), for frames: the
 * groups the fair queue shares the workers between at the grouping it uses now — a split, a task,
 * or under `query` a job (or the job's tenant, which all its jobs share). Only groups with live
 * work count: those of live jobs (tasks not ended, splits not terminal). A group's service is its
 * scheduled time so far plus its quanta running now. Jain's index is taken over each group's rate
 * of service — service over a stretch of time / that stretch's length — per weight (a tenant's,
 * `Tenants.setWeights`; 1 for every other group), so groups that arrived later are not unfair for
 * having had less, nor a tenant of weight 3 for having had three times as much. Service and time
 * are taken over the same stretch (docs/metrics.md "Jain (fair groups)"):
 * - a split, task or job group: since its job's submission; all its service lies in it.
 * - a tenant, whose time counts every job it ever ran: over its stretch of work, kept on its
 *   record as jobs come and go (tenants.ts): from when it last came to have live jobs after being
 *   idle longer than `ACTIVE_GAP_NANOS` (a tenant running jobs back to back, the next submitted
 *   as the last ends, keeps one stretch), its service then subtracted. Set by the jobs' own
 *   arrivals and ends, so the figure does not hang on when or how often it is read. Dividing a
 *   tenant's lifetime service by its oldest live job's age (before) made a tenant of short
 *   back-to-back jobs look served hundreds of times its share.
 *
 * By class, whatever the grouping: the live jobs' service (their scheduled time plus running
 * quanta) summed per job class.
 *
 * Bounded: one pass over the live groups per call; the heaviest `FAIR_GROUPS_SHOWN` are kept by
 * name, the rest summed; the per-class sums are as many as the live jobs' classes.
 */
import type { FairnessMode } from '../../../shared/config.ts';
import { FAIR_GROUPS_SHOWN, type FairGroupRow, type FairGroups } from '../../../shared/protocol.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import type { ExecJob, ExecSplit, TenantGroup } from './records.ts';
import type { RunningNow } from './running-now.ts';

interface Acc {
  row: FairGroupRow;
  /** Submit time of the group's oldest live job. */
  since: number;
  tenant: TenantGroup | null;
}

/**
 * `running` maps each split running now to its quantum's time so far (it is not yet in any
 * group's scheduled time).
 */
export function fairGroups(
  jobs: Iterable<ExecJob>,
  fairness: FairnessMode,
  running: ReadonlyMap<ExecSplit, number>,
  now: number,
): FairGroups {
  const read = () => ({ now, bySplit: running });
  return runSteps(fairGroupSteps(jobs, fairness, read, new WorkBudget(UNBOUNDED)));
}

/**
 * `fairGroups` in steps of `budget` (a frame's pass, population-pass.ts): a unit a job, a task
 * or a split visited and a group summed. `read` gives the time and the running quanta, read
 * again after each step, each group's service taken as its step visits it; a job that ended
 * since the pass began is passed over.
 */
export function* fairGroupSteps(
  jobs: Iterable<ExecJob>,
  fairness: FairnessMode,
  read: () => RunningNow,
  budget: WorkBudget,
): Steps<FairGroups> {
  const byKey = new Map<string, Acc>();
  const add = (
    key: string,
    make: () => FairGroupRow,
    service: number,
    since: number,
    tenant: TenantGroup | null = null,
  ) => {
    const known = byKey.get(key);
    if (known === undefined) {
      const row = make();
      row.serviceNanos = service;
      byKey.set(key, { row, since, tenant });
    } else {
      // A tenant's jobs: its time is counted once (its group's), the running quanta of each.
      known.row.serviceNanos += service;
      known.since = Math.min(known.since, since);
    }
  };
  let running = read();
  let inFlight = inFlightByGroup(running, fairness);
  const refresh = () => {
    running = read();
    inFlight = inFlightByGroup(running, fairness);
  };
  let unit: FairGroups['unit'] = fairness === 'query' ? 'job' : fairness;
  let ownGroups = 0;
  const byClass = new Map<string, { cls: string; jobs: number; serviceNanos: number }>();
  for (const job of jobs) {
    if (budget.spend()) {
      yield;
      refresh();
    }
    if (job.state !== 'running') continue; // ended since the pass began
    const cls = job.cls;
    const c = byClass.get(cls) ?? { cls, jobs: 0, serviceNanos: 0 };
    c.jobs++;
    c.serviceNanos += job.scheduledNanos + inFlightOfJob(running.bySplit, job);
    byClass.set(cls, c);
    if (fairness === 'query') {
      const tenant = job.tenant;
      if (tenant === null) {
        ownGroups++;
        const service = job.scheduledNanos + (inFlight.get(job) ?? 0);
        add(job.key, () => row(job.key, 'job', `#${job.id} ${cls}`, cls), service, job.submitNanos);
      } else {
        const first = !byKey.has(tenant.key);
        const ran = inFlight.get(job) ?? 0;
        const service = (first ? tenant.scheduledNanos : 0) + ran;
        const make = () => {
          const r = row(tenant.key, 'tenant', tenant.name, cls);
          if (tenant.weight !== 1) r.weight = tenant.weight;
          return r;
        };
        add(tenant.key, make, service, job.submitNanos, tenant);
      }
      continue;
    }
    for (let i = 0; i < job.taskCount; i++) {
      const task = job.taskAt(i);
      if (task.ended) continue;
      if (fairness === 'task') {
        if (budget.spend()) {
          yield;
          refresh();
        }
        const label = `#${job.id}.${task.index} ${cls}`;
        const service = task.scheduledNanos + (inFlight.get(task) ?? 0);
        add(task.key, () => row(task.key, 'task', label, cls), service, job.submitNanos);
        continue;
      }
      for (const split of task.live) {
        if (budget.spend()) {
          yield;
          refresh();
        }
        const key = `split-${split.id}`;
        const label = `split ${split.id} · #${job.id} ${cls}`;
        const service = split.scheduledNanos + (inFlight.get(split) ?? 0);
        add(key, () => row(key, 'split', label, cls), service, job.submitNanos);
      }
    }
  }
  if (fairness === 'query' && byKey.size > 0 && ownGroups === 0) unit = 'tenant';
  const classes = [...byClass.values()].sort((a, b) => b.serviceNanos - a.serviceNanos);
  const groups = yield* summarize(byKey, unit, budget, () => read().now);
  return { ...groups, byClass: classes };
}

/** The running quanta's time per fairness group: a split, its task or its job. */
function inFlightByGroup(running: RunningNow, fairness: FairnessMode): Map<object, number> {
  const inFlight = new Map<object, number>();
  for (const [split, ran] of running.bySplit) {
    const group = fairness === 'split' ? split : fairness === 'task' ? split.task : split.job;
    inFlight.set(group, (inFlight.get(group) ?? 0) + ran);
  }
  return inFlight;
}

function inFlightOfJob(running: ReadonlyMap<ExecSplit, number>, job: ExecJob): number {
  let ran = 0;
  for (const [split, t] of running) if (split.job === job) ran += t;
  return ran;
}

function row(key: string, kind: FairGroupRow['kind'], label: string, cls: string): FairGroupRow {
  return { key, kind, label, cls, serviceNanos: 0 };
}

function* summarize(
  byKey: Map<string, Acc>,
  unit: FairGroups['unit'],
  budget: WorkBudget,
  clock: () => number,
): Steps<Omit<FairGroups, 'byClass'>> {
  let now = clock();
  const shown: FairGroupRow[] = [];
  let total = 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  let weighted = 0;
  for (const acc of byKey.values()) {
    if (budget.spend()) {
      yield;
      now = clock();
    }
    const r = acc.row;
    total += r.serviceNanos;
    if (r.weight !== undefined) weighted++;
    const t = acc.tenant;
    const [from, base] = t === null ? [acc.since, 0] : [t.activeSinceNanos, t.serviceAtActiveNanos];
    const age = now - from;
    if (age > 0) {
      const x = Math.max(0, r.serviceNanos - base) / age / (r.weight ?? 1);
      sum += x;
      sumSq += x * x;
      n++;
    }
    // Keep the heaviest few in order: an insertion into a short sorted list.
    if (shown.length < FAIR_GROUPS_SHOWN || r.serviceNanos > shown.at(-1)!.serviceNanos) {
      let i = shown.length;
      while (i > 0 && shown[i - 1]!.serviceNanos < r.serviceNanos) i--;
      shown.splice(i, 0, r);
      if (shown.length > FAIR_GROUPS_SHOWN) shown.pop();
    }
  }
  const shownTotal = shown.reduce((a, r) => a + r.serviceNanos, 0);
  return {
    unit,
    count: byKey.size,
    totalNanos: total,
    groups: shown,
    others: { groups: byKey.size - shown.length, serviceNanos: total - shownTotal },
    jain: n === 0 || sumSq === 0 ? 1 : (sum * sum) / (n * sumSq),
    ...(weighted > 0 ? { weighted } : {}),
  };
}
