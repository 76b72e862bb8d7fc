/**
 * One job's detail (`jobDetail`, docs/jobs.md "Following a job"): each split's timeline
 * rebuilt from the job trail (job-trail.ts), finished by what its live record says now, and the
 * job's priority changes. A run entry carries the wait before it, so the gaps between runs are
 * told apart without an entry per wake-up: after a `blocked` quantum the gap until the wait began
 * is `blocked`, after a `failed` one it is the retry's `backoff`.
 */
import {
  JOB_DETAIL_MAX_CHANGES,
  JOB_DETAIL_MAX_SEGMENTS,
  JOB_DETAIL_MAX_SPLITS,
  type PriorityChange,
  type SplitDetail,
  type SplitSegment,
} from '../../../shared/protocol.ts';
import { outcomeAt } from '../../../shared/lib/outcomes.ts';
import { SPLIT_END_STATES, TrailKind, type JobTrail } from './job-trail.ts';
import { SPLIT_STATE_NAMES, SplitState } from './lifecycle.ts';
import type { ExecJob, ExecSplit } from './records.ts';

const OUTCOME_BLOCKED = 1;
const OUTCOME_FAILED = 3;

interface Acc extends SplitDetail {
  /** End of its last run or queued stretch, and how that run ended (−1: not a run). */
  lastEnd: number | null;
  lastOutcome: number;
}

export interface JobTimelines {
  splits: SplitDetail[];
  splitsMore: number;
  changes: PriorityChange[];
  changesCut: number;
  complete: boolean;
  trailSinceNanos: number;
}

function acc(map: Map<number, Acc>, splitId: number, taskId: number): Acc {
  let a = map.get(splitId);
  if (a === undefined) {
    a = {
      splitId,
      taskId,
      state: 'unknown',
      segments: [],
      segmentsCut: 0,
      waitNanos: 0,
      scheduledNanos: 0,
      quanta: 0,
      retries: 0,
      lastEnd: null,
      lastOutcome: -1,
    };
    map.set(splitId, a);
  }
  return a;
}

/** The stretch between a run's end and the next wait: why the split was not ready meanwhile. */
function gap(a: Acc, until: number): void {
  if (a.lastEnd === null || until <= a.lastEnd) return;
  const kind =
    a.lastOutcome === OUTCOME_BLOCKED
      ? 'blocked'
      : a.lastOutcome === OUTCOME_FAILED
        ? 'backoff'
        : null;
  if (kind !== null) a.segments.push({ kind, startNanos: a.lastEnd, endNanos: until });
}

/**
 * Whether a dispatched split's quantum has started on its worker: false while it is queued
 * behind the quantum running there (`ExecutorOptions.pipeline`).
 */
export type Started = (split: ExecSplit) => boolean;

/** `job`'s timelines; `live` is its record while it runs (null once it has ended). */
export function jobTimelines(
  trail: JobTrail,
  jobId: number,
  live: ExecJob | null,
  now: number,
  started: Started,
): JobTimelines {
  const splits = new Map<number, Acc>();
  const changes: PriorityChange[] = [];
  let complete = false;
  trail.forJob(jobId, (i) => {
    const kind = trail.kind(i);
    const t = trail.t(i);
    const value = trail.value(i);
    const splitId = trail.split(i);
    if (kind === TrailKind.submit) complete = true;
    else if (kind === TrailKind.reprioritize) {
      changes.push({
        timeNanos: t,
        splitId: -1,
        kind: 'reprioritize',
        from: trail.t2(i),
        to: value,
      });
    } else if (kind === TrailKind.level) {
      changes.push({ timeNanos: t, splitId, kind: 'level', from: value, to: trail.level(i) });
    } else if (kind === TrailKind.aging) {
      changes.push({ timeNanos: t, splitId, kind: 'aging', from: trail.t2(i), to: value });
    } else {
      const a = acc(splits, splitId, trail.task(i));
      if (kind === TrailKind.admitted) {
        a.segments.push({ kind: 'queued', startNanos: t - value, endNanos: t });
        a.lastEnd = t;
        a.lastOutcome = -1;
      } else if (kind === TrailKind.run) {
        const end = trail.t2(i);
        const outcome = trail.outcome(i);
        gap(a, t - value);
        if (value > 0) a.segments.push({ kind: 'waiting', startNanos: t - value, endNanos: t });
        const seg: SplitSegment = { kind: 'running', startNanos: t, endNanos: end };
        seg.worker = trail.worker(i);
        seg.level = trail.level(i);
        seg.outcome = outcomeAt(outcome);
        const code = trail.codeAt(i);
        if (code !== undefined) seg.errorCode = code;
        a.segments.push(seg);
        a.waitNanos += value;
        a.scheduledNanos += end - t;
        a.quanta++;
        if (outcome === OUTCOME_FAILED) a.retries++;
        a.lastEnd = end;
        a.lastOutcome = outcome;
      } else if (kind === TrailKind.splitEnd) {
        a.state = SPLIT_END_STATES[trail.outcome(i)] ?? 'unknown';
        const code = trail.codeAt(i);
        if (code !== undefined) a.errorCode = code;
        // Its last failure ended it: that one was not retried.
        if (a.state === 'failed' && a.lastOutcome === OUTCOME_FAILED) a.retries--;
      }
    }
  });
  if (live !== null) {
    for (const task of live.tasks)
      for (const s of task.live) liveSplit(acc(splits, s.id, task.id), s, now, started);
  }
  const all = [...splits.values()].sort((x, y) => x.splitId - y.splitId);
  const shown = all.slice(0, JOB_DETAIL_MAX_SPLITS).map(finish);
  const changesCut = Math.max(0, changes.length - JOB_DETAIL_MAX_CHANGES);
  return {
    splits: shown,
    splitsMore: all.length - shown.length,
    changes: changes.slice(changesCut),
    changesCut,
    complete,
    trailSinceNanos: trail.sinceNanos,
  };
}

/**
 * A live split: its state and totals from its record (its waits including the one in progress,
 * as `Frame.wait` counts them), and the stretch it is in now. A split queued behind a running
 * quantum has not started: it is shown queued, still waiting, as frames count it
 * (docs/metrics.md, "splits running / queued").
 */
function liveSplit(a: Acc, s: ExecSplit, now: number, started: Started): void {
  const state = s.state === SplitState.running && !started(s) ? SplitState.queued : s.state;
  a.state = SPLIT_STATE_NAMES[state];
  a.waitNanos = s.waitNanos + (state === SplitState.queued ? now - s.enqueuedAt : 0);
  a.scheduledNanos = s.scheduledNanos;
  a.retries = s.failures;
  switch (state) {
    case SplitState.waiting:
      a.segments.push({ kind: 'queued', startNanos: s.enqueuedAt, endNanos: null });
      return;
    case SplitState.queued:
      gap(a, s.enqueuedAt);
      a.segments.push({ kind: 'waiting', startNanos: s.enqueuedAt, endNanos: null });
      return;
    case SplitState.running:
    case SplitState.cancelling:
      gap(a, s.dispatchedAt - s.lastWaitNanos);
      if (s.lastWaitNanos > 0) {
        const from = s.dispatchedAt - s.lastWaitNanos;
        a.segments.push({ kind: 'waiting', startNanos: from, endNanos: s.dispatchedAt });
      }
      a.segments.push({
        kind: 'running',
        startNanos: s.dispatchedAt,
        endNanos: null,
        worker: s.worker,
        level: s.level,
        outcome: 'in progress',
      });
      return;
    case SplitState.blocked:
    case SplitState.retrying:
      if (a.lastEnd !== null) {
        const kind = s.state === SplitState.blocked ? 'blocked' : 'backoff';
        a.segments.push({ kind, startNanos: a.lastEnd, endNanos: null });
      }
      return;
  }
}

/** The detail of one split: its newest segments (bounded) and no bookkeeping fields. */
function finish(a: Acc): SplitDetail {
  const cut = Math.max(0, a.segments.length - JOB_DETAIL_MAX_SEGMENTS);
  const d: SplitDetail = {
    splitId: a.splitId,
    taskId: a.taskId,
    state: a.state,
    segments: a.segments.slice(cut),
    segmentsCut: cut,
    waitNanos: a.waitNanos,
    scheduledNanos: a.scheduledNanos,
    quanta: a.quanta,
    retries: Math.max(0, a.retries),
  };
  if (a.errorCode !== undefined) d.errorCode = a.errorCode;
  return d;
}
