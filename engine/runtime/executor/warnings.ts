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
import type { Steps, WorkBudget } from '../../core/graph/steps.ts';
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
  /** For a pass in steps: the time, read again after each step (`now` is the first read). */
  clock?: () => number;
  starvationNanos: number;
  runawayNanos: number;
  quantumNanos: number;
  /** Whether a dispatched split has started (job-detail.ts `Started`): queued ones have not. */
  started: Started;
  /**
   * The most a running split's quantum counts as run so far (ns; `Backend.runningBound` of its
   * worker): on the cluster while Redis is away, what it was granted — its end cannot come, and
   * the split is not at fault. Absent: no bound.
   */
  runningBound?(split: ExecSplit): number;
  /**
   * A class's recent split times (ns) with `live` (its live splits' run so far) counted in,
   * sorted, or null while it has too few (`ClassSplitTimes.sortedWith`).
   */
  classTimes(clsIndex: number, live: readonly number[]): Float64Array | null;
}

interface Found {
  split: ExecSplit;
  /** How bad (ns or a count): the worst split per job and rule is kept. */
  size: number;
  /** Its words, made only for a warning that is shown. */
  message: () => string;
}

/** The warnings found, worst first within each rule, at most the `limit` asked for. */
export interface FoundWarnings {
  warnings: JobWarning[];
  /** Warnings found past the limit. */
  more: number;
}

/**
 * The warnings `splits` raise now, worst first within each rule, rules in `WARNING_RULES` order,
 * each class's norm taken over `peers` (all live splits), in steps of `budget` splits (a frame's
 * pass, population-pass.ts; one piece for a job's detail), keeping the first `limit` (a frame's
 * share): the others are counted. Each split is judged as it is when
 * its step visits it, the time read again after each step (`b.clock`); a split or job that
 * ended before the pass did is passed over, even one flagged by an earlier step.
 */
export function* warningSteps(
  splits: Iterable<ExecSplit>,
  b: WarningBounds,
  peers: Iterable<ExecSplit>,
  budget: WorkBudget,
  limit = Infinity,
): Steps<FoundWarnings> {
  const bounds = { ...b };
  const pause = function* (): Steps<void> {
    yield;
    if (b.clock !== undefined) bounds.now = b.clock();
  };
  const classTimes = yield* classTimesWithLive(peers, bounds, budget, pause);
  const minSlowNanos = Math.max(b.quantumNanos, SLOW_SPLIT_FLOOR_MS * 1e6);
  // Per rule, in `WARNING_RULES` order: job id → its worst split.
  const worst = WARNING_RULES.map(() => new Map<number, Found>());
  const flag = (split: ExecSplit, rule: WarningRule, size: number, message: () => string) => {
    const byJob = worst[WARNING_RULES.indexOf(rule)]!;
    const had = byJob.get(split.job.id);
    if (had === undefined || size > had.size) byJob.set(split.job.id, { split, size, message });
  };
  for (const s of splits) {
    if (budget.spend()) yield* pause();
    // A cancelling split of an ended job; a split that ended since the pass began.
    if (s.job.state !== 'running' || isTerminalSplit(s.state)) continue;
    const now = bounds.now;
    const runningFor = runningForOf(s, bounds);
    // Queued behind a running quantum (`pipeline`) is still waiting, as in the ready queue.
    if (s.state === SplitState.queued || (s.state === SplitState.running && !b.started(s))) {
      const wait = now - s.enqueuedAt;
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
      const failures = s.failures;
      flag(
        s,
        'retries',
        failures,
        () => `split ${s.id} retried ${failures} times (more than ${WARN_RETRIES})`,
      );
    }
  }
  return yield* worstFirst(worst, limit, budget);
}

/**
 * The flagged, rule by rule, worst first (then by job id), the first `limit` kept with their
 * words and the rest counted. A flag whose split or job ended since it was raised is dropped.
 * The first `limit` of each rule are picked without sorting them all: with 100,000 runs starving
 * a sort of every flag took 50–100 ms of one frame.
 */
function* worstFirst(
  worst: readonly Map<number, Found>[],
  limit: number,
  budget: WorkBudget,
): Steps<FoundWarnings> {
  const warnings: JobWarning[] = [];
  let more = 0;
  for (let r = 0; r < WARNING_RULES.length; r++) {
    const room = limit - warnings.length;
    let kept: Found[] = [];
    for (const f of worst[r]!.values()) {
      if (budget.spend()) yield;
      if (f.split.job.state !== 'running' || isTerminalSplit(f.split.state)) continue;
      if (room === Infinity) {
        kept.push(f); // all of them: sorted once below
        continue;
      }
      if (kept.length === room && (room === 0 || !before(f, kept.at(-1)!))) {
        more++;
        continue;
      }
      let i = kept.length;
      while (i > 0 && before(f, kept[i - 1]!)) i--;
      kept.splice(i, 0, f);
      if (kept.length > room) {
        kept.pop();
        more++;
      }
    }
    if (room === Infinity) kept = kept.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const rule = WARNING_RULES[r]!;
    for (const f of kept) {
      warnings.push({
        jobId: f.split.job.id,
        class: f.split.job.cls,
        rule,
        splitId: f.split.id,
        message: f.message(),
      });
    }
  }
  return { warnings, more };
}

/** Whether `a` is listed before `b` within a rule: worse first, then the older job. */
function before(a: Found, b: Found): boolean {
  return a.size > b.size || (a.size === b.size && a.split.job.id < b.split.job.id);
}

/** How long `s`'s quantum in progress has run: 0 when none has started. */
function runningForOf(s: ExecSplit, b: WarningBounds): number {
  const running = s.state === SplitState.running || s.state === SplitState.cancelling;
  if (!running || !b.started(s)) return 0;
  const ran = b.now - s.dispatchedAt;
  return b.runningBound === undefined ? ran : Math.min(ran, b.runningBound(s));
}

/** Each class's statistics with its live splits that have run counted in, computed once a call. */
function* classTimesWithLive(
  peers: Iterable<ExecSplit>,
  b: WarningBounds,
  budget: WorkBudget,
  pause: () => Steps<void>,
) {
  const live = new Map<number, number[]>();
  for (const s of peers) {
    if (budget.spend()) yield* pause();
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
