/**
 * The warnings panel's rules (docs/jobs.md "Warnings"), one definition for frames and
 * `jobDetail`. A live job is flagged once per rule, naming its worst split:
 *  - `starving`: a split has waited in the ready queue longer than the starvation bound (the one
 *    the starvation alarm uses);
 *  - `overrun`: a quantum of a split ran past its quantum by more than `runawayAfterMs` (one
 *    running now, or one that ended);
 *  - `slow-split`: a split has run longer than all of: `SLOW_SPLIT_FACTOR` × its class's median
 *    split time, `SLOW_SPLIT_TAIL` × the class's 99th percentile (recent succeeded splits and
 *    the run so far of its live ones, class-split-times.ts), one quantum and
 *    `SLOW_SPLIT_FLOOR_MS`. The median of ended splits alone flagged the normal tail of
 *    heavy-tailed classes (Trino's split times), every long split while only short ones had
 *    ended, and millisecond splits.
 *  - `retries`: a split has been retried more than `WARN_RETRIES` times.
 */
import { formatMs } from '../../../shared/lib/format.ts';
import { WARNING_RULES, type JobWarning, type WarningRule } from '../../../shared/protocol.ts';
import { summarise, type ClassTimeStats } from './class-split-times.ts';
import { runSteps, UNBOUNDED, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import { isTerminalSplit, SplitState } from './lifecycle.ts';
import type { ExecSplit } from './records.ts';
import type { Started } from './job-detail.ts';

export const SLOW_SPLIT_FACTOR = 10;
/** A slow split also ran this many times the class's 99th percentile: past its normal tail. */
export const SLOW_SPLIT_TAIL = 3;
/** …and at least this long (engine ms): a few milliseconds are never worth a warning. */
export const SLOW_SPLIT_FLOOR_MS = 1000;
export const WARN_RETRIES = 3;

export interface WarningBounds {
  now: number;
  starvationNanos: number;
  runawayNanos: number;
  quantumNanos: number;
  /** Whether a dispatched split has started (job-detail.ts `Started`): queued ones have not. */
  started: Started;
  /**
   * A class's recent split times (ns) with `live` (its live splits' run so far) counted in,
   * sorted, or null while it has too few (`ClassSplitTimes.sortedWith`).
   */
  classTimes(clsIndex: number, live: readonly number[]): Float64Array | null;
}

interface Found {
  split: ExecSplit;
  rule: WarningRule;
  /** How bad (ns or a count): the worst split per job and rule is kept. */
  size: number;
  message: string;
}

/**
 * The warnings `splits` raise now, worst first within each rule, rules in `WARNING_RULES` order.
 * `peers` are all live splits (a class's norm counts them), `splits` when omitted.
 */
export function findWarnings(
  splits: Iterable<ExecSplit>,
  b: WarningBounds,
  peers: Iterable<ExecSplit> = splits,
): JobWarning[] {
  return runSteps(warningSteps(splits, b, peers, new WorkBudget(UNBOUNDED)));
}

/**
 * `findWarnings` in steps of `budget` splits (a frame's pass over every live split,
 * population-pass.ts). The lists may be copies taken before the first step: a split that ended
 * since is passed over.
 */
export function* warningSteps(
  splits: Iterable<ExecSplit>,
  b: WarningBounds,
  peers: Iterable<ExecSplit>,
  budget: WorkBudget,
): Steps<JobWarning[]> {
  const classTimes = yield* classTimesWithLive(peers, b, budget);
  const minSlowNanos = Math.max(b.quantumNanos, SLOW_SPLIT_FLOOR_MS * 1e6);
  const worst = new Map<string, Found>();
  const flag = (split: ExecSplit, rule: WarningRule, size: number, message: () => string) => {
    const key = `${split.job.id}:${rule}`;
    const had = worst.get(key);
    if (had === undefined || size > had.size) {
      worst.set(key, { split, rule, size, message: message() });
    }
  };
  for (const s of splits) {
    if (budget.spend()) yield;
    // A cancelling split of an ended job; a split that ended since the list was taken.
    if (s.job.state !== 'running' || isTerminalSplit(s.state)) continue;
    const runningFor = runningForOf(s, b);
    // Queued behind a running quantum (`pipeline`) is still waiting, as in the ready queue.
    if (s.state === SplitState.queued || (s.state === SplitState.running && !b.started(s))) {
      const wait = b.now - s.enqueuedAt;
      if (wait > b.starvationNanos) {
        flag(
          s,
          'starving',
          wait,
          () => `split ${s.id} has waited ${ms(wait)} (bound ${ms(b.starvationNanos)})`,
        );
      }
    }
    const over = Math.max(s.maxOverrunNanos, runningFor - b.quantumNanos);
    if (over > b.runawayNanos) {
      flag(
        s,
        'overrun',
        over,
        () => `split ${s.id} ran ${ms(over)} past its quantum (bound ${ms(b.runawayNanos)})`,
      );
    }
    const ran = s.scheduledNanos + runningFor;
    // The floor first: most splits are below it, and the class's statistics are not needed.
    const sorted = ran > minSlowNanos ? classTimes(s.job.clsIndex) : null;
    // Judged against the others of its class: its own run is one of the live samples.
    const times = sorted === null ? null : summarise(sorted, ran);
    if (times !== null && ran > slowBound(times, b.quantumNanos)) {
      const median = times.median;
      flag(
        s,
        'slow-split',
        ran,
        () =>
          `split ${s.id} has run ${ms(ran)}, ${Math.round(ran / Math.max(1, median))}× its class's median ${ms(median)}`,
      );
    }
    if (s.failures > WARN_RETRIES) {
      flag(
        s,
        'retries',
        s.failures,
        () => `split ${s.id} retried ${s.failures} times (more than ${WARN_RETRIES})`,
      );
    }
  }
  const order = (r: WarningRule) => WARNING_RULES.indexOf(r);
  return [...worst.values()]
    .sort(
      (x, y) => order(x.rule) - order(y.rule) || y.size - x.size || x.split.job.id - y.split.job.id,
    )
    .map((f) => ({
      jobId: f.split.job.id,
      class: f.split.job.cls,
      rule: f.rule,
      splitId: f.split.id,
      message: f.message,
    }));
}

/** How long `s`'s quantum in progress has run: 0 when none has started. */
function runningForOf(s: ExecSplit, b: WarningBounds): number {
  const running = s.state === SplitState.running || s.state === SplitState.cancelling;
  return running && b.started(s) ? b.now - s.dispatchedAt : 0;
}

/** Each class's statistics with its live splits that have run counted in, computed once a call. */
function* classTimesWithLive(peers: Iterable<ExecSplit>, b: WarningBounds, budget: WorkBudget) {
  const live = new Map<number, number[]>();
  for (const s of peers) {
    if (budget.spend()) yield;
    if (s.job.state !== 'running' || isTerminalSplit(s.state)) continue;
    const ran = s.scheduledNanos + runningForOf(s, b);
    if (ran <= 0) continue;
    const list = live.get(s.job.clsIndex);
    if (list === undefined) live.set(s.job.clsIndex, [ran]);
    else list.push(ran);
  }
  const memo = new Map<number, Float64Array | null>();
  return (cls: number): Float64Array | null => {
    let t = memo.get(cls);
    if (t === undefined) memo.set(cls, (t = b.classTimes(cls, live.get(cls) ?? [])));
    return t;
  };
}

/** How long (ns) a split of a class with these times runs before it is flagged slow. */
export function slowBound(t: ClassTimeStats, quantumNanos: number): number {
  return Math.max(
    SLOW_SPLIT_FACTOR * t.median,
    SLOW_SPLIT_TAIL * t.p99,
    quantumNanos,
    SLOW_SPLIT_FLOOR_MS * 1e6,
  );
}

function ms(nanos: number): string {
  return formatMs(nanos / 1e6);
}
