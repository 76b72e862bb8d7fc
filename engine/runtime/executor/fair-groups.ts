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
import type { Steps, WorkBudget } from '../../core/graph/steps.ts';
import type { ExecJob, ExecSplit, ExecTask, TenantGroup } from './records.ts';
import { runningByJob, type RunningNow } from './running-now.ts';

/**
 * One group's sums, kept by the group itself (a tenant, job, task or split): its row, with the
 * words that name it, is made only for a group shown (a string or two a group, 100,000 of them a
 * pass, were most of a pass's cost).
 */
interface Acc {
  service: number;
  /** Submit time of the group's oldest live job. */
  since: number;
  tenant: TenantGroup | null;
  kind: FairGroupRow['kind'];
  /** The group's first job seen (a tenant's row names its class), and its task or split. */
  job: ExecJob;
  part: ExecTask | ExecSplit | null;
}

/**
 * Service per fairness group over the live `jobs`, in steps of `budget` (a frame's pass,
 * population-pass.ts; one piece for `Executor.fairGroups`): a unit a job, a task or a split
 * visited and a group summed. `read` gives the time and the running quanta, read
 * again after each step, each group's service taken as its step visits it; a job that ended
 * since the pass began is passed over.
 */
export function* fairGroupSteps(
  jobs: Iterable<ExecJob>,
  fairness: FairnessMode,
  read: () => RunningNow,
  budget: WorkBudget,
): Steps<FairGroups> {
  const byGroup = new Map<object, Acc>();
  const add = (
    group: object,
    kind: Acc['kind'],
    job: ExecJob,
    part: Acc['part'],
    service: number,
    tenant: TenantGroup | null = null,
  ) => {
    const known = byGroup.get(group);
    if (known === undefined) {
      byGroup.set(group, { service, since: job.submitNanos, tenant, kind, job, part });
    } else {
      // A tenant's jobs: its time is counted once (its group's), the running quanta of each.
      known.service += service;
      known.since = Math.min(known.since, job.submitNanos);
    }
  };
  let running = read();
  let inFlight = inFlightByGroup(running, fairness);
  let byJob = runningByJob(running);
  const refresh = () => {
    running = read();
    inFlight = inFlightByGroup(running, fairness);
    byJob = runningByJob(running);
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
    c.serviceNanos += job.scheduledNanos + (byJob.get(job) ?? 0);
    byClass.set(cls, c);
    if (fairness === 'query') {
      const tenant = job.tenant;
      if (tenant === null) {
        ownGroups++;
        add(job, 'job', job, null, job.scheduledNanos + (inFlight.get(job) ?? 0));
      } else {
        const first = !byGroup.has(tenant);
        const service = (first ? tenant.scheduledNanos : 0) + (inFlight.get(job) ?? 0);
        add(tenant, 'tenant', job, null, service, tenant);
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
        add(task, 'task', job, task, task.scheduledNanos + (inFlight.get(task) ?? 0));
        continue;
      }
      for (const split of task.live) {
        if (budget.spend()) {
          yield;
          refresh();
        }
        add(split, 'split', job, split, split.scheduledNanos + (inFlight.get(split) ?? 0));
      }
    }
  }
  if (fairness === 'query' && byGroup.size > 0 && ownGroups === 0) unit = 'tenant';
  const classes = [...byClass.values()].sort((a, b) => b.serviceNanos - a.serviceNanos);
  const groups = yield* summarize(byGroup, unit, budget, () => read().now);
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

function row(key: string, kind: FairGroupRow['kind'], label: string, cls: string): FairGroupRow {
  return { key, kind, label, cls, serviceNanos: 0 };
}

/** The row a shown group is listed as. */
function rowOf(acc: Acc): FairGroupRow {
  const { job } = acc;
  const cls = job.cls;
  let r: FairGroupRow;
  if (acc.kind === 'tenant') {
    const t = acc.tenant!;
    r = row(t.key, 'tenant', t.name, cls);
    if (t.weight !== 1) r.weight = t.weight;
  } else if (acc.kind === 'job') {
    r = row(job.key, 'job', `#${job.id} ${cls}`, cls);
  } else if (acc.kind === 'task') {
    const task = acc.part as ExecTask;
    r = row(task.key, 'task', `#${job.id}.${task.index} ${cls}`, cls);
  } else {
    const split = acc.part as ExecSplit;
    r = row(`split-${split.id}`, 'split', `split ${split.id} · #${job.id} ${cls}`, cls);
  }
  r.serviceNanos = acc.service;
  return r;
}

function* summarize(
  byGroup: Map<object, Acc>,
  unit: FairGroups['unit'],
  budget: WorkBudget,
  clock: () => number,
): Steps<Omit<FairGroups, 'byClass'>> {
  let now = clock();
  const shown: Acc[] = [];
  let total = 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  let weighted = 0;
  for (const acc of byGroup.values()) {
    if (budget.spend()) {
      yield;
      now = clock();
    }
    const service = acc.service;
    total += service;
    const t = acc.tenant;
    const weight = t === null ? 1 : t.weight;
    if (weight !== 1) weighted++;
    const [from, base] = t === null ? [acc.since, 0] : [t.activeSinceNanos, t.serviceAtActiveNanos];
    const age = now - from;
    if (age > 0) {
      const x = Math.max(0, service - base) / age / weight;
      sum += x;
      sumSq += x * x;
      n++;
    }
    // Keep the heaviest few in order: an insertion into a short sorted list.
    if (shown.length < FAIR_GROUPS_SHOWN || service > shown.at(-1)!.service) {
      let i = shown.length;
      while (i > 0 && shown[i - 1]!.service < service) i--;
      shown.splice(i, 0, acc);
      if (shown.length > FAIR_GROUPS_SHOWN) shown.pop();
    }
  }
  const shownTotal = shown.reduce((a, g) => a + g.service, 0);
  return {
    unit,
    count: byGroup.size,
    totalNanos: total,
    groups: shown.map(rowOf),
    others: { groups: byGroup.size - shown.length, serviceNanos: total - shownTotal },
    jain: n === 0 || sumSq === 0 ? 1 : (sum * sum) / (n * sumSq),
    ...(weighted > 0 ? { weighted } : {}),
  };
}
